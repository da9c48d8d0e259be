"""gunicorn settings for production (the Docker image's, and tests/serving/test_two_hosts.py's).

    gunicorn -c deploy/gunicorn.conf.py 'scorekeeper:create_app()'

gunicorn's sync workers each serve one request at a time and read it whole
from the client first, so they must sit behind a reverse proxy that buffers
requests and responses (deploy/nginx/default.conf.template): a client that
sends its headers one line every few seconds then holds a connection to the
proxy, which has thousands, instead of one of a handful of workers. Never
expose this port to the internet directly.

Environment: ``PORT`` (default 8000), ``WEB_CONCURRENCY`` (workers, default
4 × cores, at most 8; the app is loaded once before they are forked, so they share most of
its memory).
"""

import multiprocessing
import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
# WEB_CONCURRENCY is gunicorn's own variable; this is only the default without it. Four a core,
# at most 8: a sync worker also waits (for the database's lock, for Redis) while holding its
# request, and a table's drafts come hundreds a second (bench/README.md, "Shared tables": 8
# workers on 2 cores cut the change→sight p95 of 100 tables from 1.2 s to 0.8 s against 4).
workers = int(os.environ.get("WEB_CONCURRENCY", min(8, 4 * multiprocessing.cpu_count())))
# A request longer than this (a PDF takes about 0.3 s) is a stuck worker: it is restarted.
timeout = 30
# On a deploy or scale-down, requests under way get this long to finish.
graceful_timeout = 20
# Restart each worker now and then, so a slow leak in a library (WeasyPrint keeps font caches)
# never grows without end; far apart (a jitter of half the count), so that the workers never
# restart together: at a busy table's rate (hundreds of drafts a second) equal counts brought
# all four down within two seconds, every half minute.
max_requests = 2000
max_requests_jitter = 1000
# The app is loaded once, in the master, before the workers are forked: a worker (re)started
# is ready at once instead of spending seconds of CPU importing the app and its libraries while
# the others carry its requests. (The app closes the database connections it opened while
# starting: no worker shares one.)
preload_app = True
# The workers' heartbeat files in memory, not on a container's overlay disk.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# No access log here: the proxy writes one, with the private links' secrets left out
# (a private page's address holds its secret). Errors go to stderr; gunicorn's own lines
# about a request (a worker stopped mid-request, a request line refused) name its route, not
# its path: the app puts a filter on this log when it is created (scorekeeper/web/logs.py).
accesslog = None
errorlog = "-"
# No control socket (gunicornc): nothing here uses it, and its default place is the home
# folder, which the image's user does not have.
control_socket_disable = True
