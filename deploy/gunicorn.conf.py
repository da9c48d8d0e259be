"""gunicorn settings for production (the Docker image's, and tests/serving/test_two_hosts.py's).

    gunicorn -c deploy/gunicorn.conf.py 'scorekeeper:create_app()'

gunicorn's sync workers each serve one request at a time and read it whole
from the client first, so they must sit behind a reverse proxy that buffers
requests and responses (deploy/nginx/default.conf.template): a client that
sends its headers one line every few seconds then holds a connection to the
proxy, which has thousands, instead of one of a handful of workers. Never
expose this port to the internet directly.

Environment: ``PORT`` (default 8000), ``WEB_CONCURRENCY`` (workers, default
2 × cores, at most 4; each worker holds the app and WeasyPrint, about 100 MB).
"""

import multiprocessing
import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
# WEB_CONCURRENCY is gunicorn's own variable; this is only the default without it
workers = int(os.environ.get("WEB_CONCURRENCY", min(4, 2 * multiprocessing.cpu_count())))
# A request longer than this (a PDF takes about 0.3 s) is a stuck worker: it is restarted.
timeout = 30
# On a deploy or scale-down, requests under way get this long to finish.
graceful_timeout = 20
# Restart each worker now and then (with jitter, so not all at once), so a slow leak in a
# library (WeasyPrint keeps font caches) never grows without end.
max_requests = 2000
max_requests_jitter = 200
# The workers' heartbeat files in memory, not on a container's overlay disk.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# No access log here: the proxy writes one, with the private links' secrets left out
# (a private page's address holds its secret). Errors go to stderr.
accesslog = None
errorlog = "-"
# No control socket (gunicornc): nothing here uses it, and its default place is the home
# folder, which the image's user does not have.
control_socket_disable = True
