"""Run the app under gunicorn on a free loopback port, as production would; and what
production puts around it (compose.yaml), from Debian's packages: redis-server for
shared rate-limit counts, nginx in front, the schema migrated as a release step."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

GUNICORN = Path(sys.executable).with_name("gunicorn")
FLASK = Path(sys.executable).with_name("flask")
DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
#: The production gunicorn settings (the Docker image's); -w, -b and --timeout given here win.
GUNICORN_CONF = DEPLOY / "gunicorn.conf.py"
NGINX_TEMPLATE = DEPLOY / "nginx" / "default.conf.template"
SITE_SOCKET = "unix:/run/nginx-site.sock"  # where nginx.conf's stream block passes connections to the site
SITE_ERROR_LOG = "/var/log/nginx/error.log"  # the site's error log (the official image's: its stderr)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def gunicorn(
    database_url: str | None,
    workers: int = 3,
    log: Path | None = None,
    command: Path = GUNICORN,
    cwd: Path | str | None = None,
    app: str = "scorekeeper:create_app()",
    config: Path | None = None,
    timeout: int = 60,
    worker_class: str = "sync",
    **env: str,
):
    """Yield the base URL of ``gunicorn -w WORKERS APP`` (by default
    ``'scorekeeper:create_app()'``), stopped on exit. Waits at most 60 s for it
    to answer ``/healthz`` (another *app*: ``/``).

    *database_url* None: the app's own default (SQLite in its instance folder).
    *command*: another environment's gunicorn, started in *cwd*. *config*: a
    gunicorn settings file (:data:`GUNICORN_CONF`); *timeout*: seconds before a
    silent worker is restarted; *worker_class*: ``sync``, ``gthread`` (8 threads
    a worker) or ``gevent`` (the stream workers'); *env*: more environment."""
    port = free_port()
    environment = os.environ | {"SCOREKEEPER_SECRET_KEY": "gunicorn-test-secret", **env}
    if database_url is not None:
        environment["SCOREKEEPER_DATABASE_URL"] = database_url
    output = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    settings = ["-c", str(config)] if config else []
    process = subprocess.Popen(
        [
            *(str(command), *settings, "-w", str(workers), "-b", f"127.0.0.1:{port}", "--timeout", str(timeout)),
            *(("-k", "gthread", "--threads", "8") if worker_class == "gthread" else ()),
            *(("-k", "gevent") if worker_class == "gevent" else ()),
            app,
        ],
        env=environment,
        cwd=cwd,
        stdout=output,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                probe = "/healthz" if app.startswith("scorekeeper:") else "/"
                if requests.get(base + probe, timeout=2).status_code == 200:
                    break
            except requests.RequestException:  # not listening yet, or still migrating
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start (exit {process.poll()})")
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        if log:
            output.close()


def required_program(name: str) -> str:
    """The path of Debian's *name* (``redis-server``, ``nginx``); a test without it is
    skipped with the reason, or fails where ``SCOREKEEPER_REQUIRE_SERVERS=1`` (CI)."""
    import pytest

    path = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")
    if path is None:
        message = f"{name} is not installed (Debian: apt-get install {name})"
        if os.environ.get("SCOREKEEPER_REQUIRE_SERVERS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return path


def _wait_until(ready, process: subprocess.Popen, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start (exit {process.poll()})")
        time.sleep(0.1)


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class RedisServer:
    """A redis-server of our own on a free loopback port, in memory only (no dump file), that
    a test may stop and start again on the same port (:meth:`stop`, :meth:`start`)."""

    def __init__(self, program: str = "redis-server") -> None:
        self.program = program
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.program, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        _wait_until(self.answers, self.process, "redis-server")

    def answers(self) -> bool:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
        return False

    def stop(self) -> None:
        if self.process is not None:
            _stop(self.process)
            self.process = None


@contextlib.contextmanager
def redis_server(program: str = "redis-server"):
    """Yield the ``redis://`` URL of a :class:`RedisServer` of our own, stopped on exit."""
    server = RedisServer(program)
    try:
        server.start()
        yield server.url
    finally:
        server.stop()


@contextlib.contextmanager
def job_worker(database_url: str, log: Path, **env: str):
    """Yield ``flask worker`` (compose's ``worker`` service: Huey's consumer of the jobs,
    each group's standing brought up to date) on *database_url* and the Redis of
    ``SCOREKEEPER_REDIS_URL`` in *env*, writing its log to *log*; stopped on exit."""
    environment = os.environ | {"SCOREKEEPER_SECRET_KEY": "gunicorn-test-secret", **env}
    environment["SCOREKEEPER_DATABASE_URL"] = database_url
    with open(log, "w") as output:
        process = subprocess.Popen(
            [str(FLASK), "--app", "scorekeeper", "worker"], env=environment, stdout=output, stderr=subprocess.STDOUT
        )
        try:
            yield process
        finally:
            _stop(process)


def release_step(database_url: str, **env: str) -> None:
    """Migrate the schema to the newest revision (``flask db upgrade``), as the
    release step before the app servers start with ``SCOREKEEPER_MIGRATE=false``."""
    environment = os.environ | {"SCOREKEEPER_SECRET_KEY": "gunicorn-test-secret", **env}
    environment["SCOREKEEPER_DATABASE_URL"] = database_url
    subprocess.run(
        [str(FLASK), "--app", "scorekeeper", "db", "upgrade"], env=environment, check=True, capture_output=True
    )


def nginx_config(
    listen: str, upstreams: list[str], host_names: str, folder: Path, live: list[str] | None = None
) -> Path:
    """The production nginx settings (:data:`NGINX_TEMPLATE` and the connections of its
    main file beside it, compose's proxy) with
    *listen* (``127.0.0.1:8080``), the *upstreams* (``127.0.0.1:5701``, …) in place
    of compose's ``app:8000``, the stream workers *live* in place of ``live:8001``
    (default: the upstreams, whose sync workers refuse streams) and *host_names* for
    ``${SCOREKEEPER_HOST}``, inside a main file that keeps every path in *folder*, with
    the production main file's stream block (each address's connections bounded) in
    front of the site. Returns the main file."""
    site = NGINX_TEMPLATE.read_text(encoding="utf-8")
    socket_path = f"unix:{folder / 'site.sock'}"
    for old, new in (
        ("    server app:8000;\n", "".join(f"    server {upstream};\n" for upstream in upstreams)),
        ("    server live:8001;\n", "".join(f"    server {upstream};\n" for upstream in live or upstreams)),
        ("${SCOREKEEPER_HOST}", host_names),
        (SITE_SOCKET, socket_path),
        (SITE_ERROR_LOG, str(folder / "error.log")),  # the site's own level kept
    ):
        if old not in site:
            raise ValueError(f"{NGINX_TEMPLATE.name} no longer has {old.strip()!r}")
        site = site.replace(old, new)
    (folder / "scorekeeper.conf").write_text(site, encoding="utf-8")
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = folder / "nginx.conf"
    production = (NGINX_TEMPLATE.parent / "nginx.conf").read_text(encoding="utf-8")
    connections = re.search(r"worker_connections (\d+);", production)[1]  # the production main file's
    files = re.search(r"worker_rlimit_nofile (\d+);", production)[1]
    stream = re.search(r"^stream \{\n.*?^\}\n", production, re.MULTILINE | re.DOTALL)[0]  # the bound per address
    if stream.count("listen 80;") != 1 or SITE_SOCKET not in stream:
        raise ValueError("nginx.conf's stream block no longer listens on port 80 for the site's socket")
    stream = stream.replace("listen 80;", f"listen {listen};").replace(SITE_SOCKET, socket_path)
    module = Path("/usr/lib/nginx/modules/ngx_stream_module.so")  # Debian's: a module of its own
    main.write_text(
        f"""{"user root;" if os.geteuid() == 0 else ""}
{f"load_module {module};" if module.exists() else ""}
worker_processes 1;
worker_rlimit_nofile {files};
daemon off;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
events {{ worker_connections {connections}; }}
{stream}
http {{
{temp}
    include {folder / "scorekeeper.conf"};
}}
""",
        encoding="utf-8",
    )
    return main


@contextlib.contextmanager
def nginx(
    upstreams: list[str],
    folder: Path,
    program: str | None = None,
    host_names: str = "127.0.0.1 localhost",
    live: list[str] | None = None,
):
    """Yield the base URL of Debian's nginx with the production settings on a free
    loopback port, in front of *upstreams* (``host:port``) and the stream workers
    *live* (see :func:`nginx_config`); its files, access log included
    (``access.log``), in *folder*; stopped on exit."""
    program = program or shutil.which("nginx") or "/usr/sbin/nginx"  # (sbin: not on every user's PATH)
    port = free_port()
    folder.mkdir(parents=True, exist_ok=True)
    main = nginx_config(f"127.0.0.1:{port}", upstreams, host_names, folder, live)
    subprocess.run(
        [program, "-t", "-q", "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(main)], check=True
    )
    with open(folder / "access.log", "w") as log:
        process = subprocess.Popen(
            [program, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(main)],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            with contextlib.suppress(requests.RequestException):
                return requests.get(base + "/healthz", timeout=2).status_code == 200
            return False

        try:
            _wait_until(answers, process, "nginx")
            yield base
        finally:
            _stop(process)


class _FromAddress(requests.adapters.HTTPAdapter):
    """Connections from one loopback address of the client's choosing."""

    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs, source_address=(self.address, 0))


def browser_from(address: str) -> requests.Session:
    """A browser (its own cookies) connecting from *address*, any of 127/8 (this machine):
    through nginx, the client address the rate limits and the logs see."""
    session = requests.Session()
    session.mount("http://", _FromAddress(address))
    return session
