"""gunicorn settings for the tables' streams (compose's "live" service; tests/serving's).

    gunicorn -c deploy/gunicorn-live.conf.py 'scorekeeper:create_app()'

Every phone at an open table keeps one WebSocket to ``/socket.io/`` for as long as its
page is open (scorekeeper/web/tables/stream.py). A sync worker serves one request at a time, so
each stream would hold one: these workers are gevent's instead, each holding thousands of
quiet connections in one process, and they serve nothing else. The proxy sends only
``/socket.io/`` here (deploy/nginx/default.conf.template); pages, drafts and PDFs go to the
sync workers of deploy/gunicorn.conf.py, so that a PDF being made (a third of a second of
CPU) never stalls a stream. Every change reaches these processes through Redis
(``SCOREKEEPER_REDIS_URL``), whichever process or host made it.

Watching needs no database: a stream is told of changes, and its page asks the sync
workers for the table once it is connected. A seat page sends its drafts on its stream
(scorekeeper/web/tables/stream.py), stored from here: these workers run the same app factory with
the same environment (the database's URL among it), and psycopg waits for PostgreSQL
cooperatively under gevent (it sees the patched ``select``), so a draft being stored never
stalls the other streams. Any worker may take any connection (WebSocket only, no
long-polling: no sticky sessions), so more workers or replicas just add room.

Environment: ``PORT`` (default 8001), ``LIVE_WORKERS`` (default 1: one process holds the
streams of hundreds of tables; add one per core the streams need).
"""

import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8001')}"
worker_class = "gevent"
workers = int(os.environ.get("LIVE_WORKERS", "1"))
# Open streams per worker: 4 phones at each of 1,000 tables, with room to spare.
worker_connections = 5000
# A gevent worker answers gunicorn's heartbeat between requests of any length: a stream
# open for an hour is not a stuck worker. A worker silent this long is. No one client holds it
# that long: a connection is closed at its first message out of place (no ticket in 5 s, a
# packet nested deep, too big or too many: scorekeeper/web/tables/gate.py) and its reads let
# the other connections run; before, one sending nested packets without a ticket got the worker
# killed by this timeout, with every stream it held (issue 32; their pages reconnect to another).
timeout = 30
# On a deploy, streams under way get this long; their pages reconnect to another worker.
graceful_timeout = 5
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
accesslog = None
errorlog = "-"
control_socket_disable = True
