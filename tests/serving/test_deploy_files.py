"""The production files say what the README says: compose's shape, the image's user and
health check, and an nginx settings file that nginx accepts (CI has no Docker to run them;
tests/serving/test_two_hosts.py runs the same shape from Debian's packages)."""

from __future__ import annotations

import re
import runpy
import subprocess
from pathlib import Path

import yaml

from tests.serving.server import NGINX_TEMPLATE, nginx_config, required_program

ROOT = Path(__file__).resolve().parents[2]


def test_compose_has_two_replicas_behind_nginx_migrated_first_with_shared_limits():
    services = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))["services"]
    assert set(services) == {"db", "redis", "migrate", "app", "live", "worker", "proxy"}
    app, migrate, live = services["app"], services["migrate"], services["live"]
    # the jobs (a group's standing caught up): Huey's consumer on the same database and Redis
    worker = services["worker"]
    assert worker["command"] == ["flask", "worker"] and worker["environment"] == app["environment"]
    assert worker["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert worker["depends_on"]["redis"]["condition"] == "service_healthy"
    assert app["deploy"]["replicas"] == 2 and live["deploy"]["replicas"] == 2
    # the streams: gevent workers of their own, told of every change through Redis
    assert "gunicorn-live.conf.py" in " ".join(live["command"]) and live["environment"] == app["environment"]
    assert live["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert app["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert migrate["command"] == ["flask", "db", "upgrade"] and migrate["restart"] == "no"
    assert "ports" not in app  # reached through the proxy only
    environment = app["environment"]
    assert environment == migrate["environment"]  # the release step migrates the replicas' database
    assert environment["SCOREKEEPER_MIGRATE"] == "false"
    assert environment["SCOREKEEPER_RATELIMIT_STORAGE_URI"].startswith("redis://redis:")
    assert environment["SCOREKEEPER_REDIS_URL"].startswith("redis://redis:")
    assert (
        environment["SCOREKEEPER_DATABASE_URL"].startswith("postgresql://")
        and "@db:" in environment["SCOREKEEPER_DATABASE_URL"]
    )
    assert environment["SCOREKEEPER_PROXY_FIX_X_FOR"] == "1"
    proxy = services["proxy"]
    mounted = {volume.split(":")[0] for volume in proxy["volumes"]}
    assert f"./{NGINX_TEMPLATE.relative_to(ROOT)}" in mounted
    assert "./deploy/nginx/nginx.conf" in mounted  # room for every phone's stream (two connections each)
    assert proxy["depends_on"]["app"]["condition"] == "service_healthy"
    assert proxy["depends_on"]["live"]["condition"] == "service_healthy"


def test_image_runs_unprivileged_with_a_health_check_and_the_production_settings():
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    final_stage = dockerfile.rsplit("\nFROM ", 1)[1]
    user = re.search(r"^USER (\S+)", final_stage, re.MULTILINE)[1]
    assert user not in ("root", "0")
    assert re.search(r"^HEALTHCHECK .*\n?.*/healthz", final_stage, re.MULTILINE)
    assert "COPY deploy/gunicorn.conf.py deploy/gunicorn-live.conf.py /etc/scorekeeper/" in final_stage
    assert re.search(r'^CMD \["gunicorn", "-c", "/etc/scorekeeper/gunicorn.conf.py"', final_stage, re.MULTILINE)


def test_nginx_accepts_the_production_settings(tmp_path):
    nginx = required_program("nginx")
    main = nginx_config("127.0.0.1:1", ["127.0.0.1:2", "127.0.0.1:3"], "scores.example.org", tmp_path)
    checked = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c", str(main)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr


def test_gunicorn_writes_no_access_log():
    """README: gunicorn writes no access log (paths hold secrets; nginx logs each answer's route)."""
    for name in ("gunicorn.conf.py", "gunicorn-live.conf.py"):
        settings = runpy.run_path(str(ROOT / "deploy" / name))
        assert "accesslog" in settings and settings["accesslog"] is None, name
