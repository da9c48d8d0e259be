"""scorekeeper: the score-sheet companion for DRAKO: Aetherya Pocket."""

from __future__ import annotations

from typing import TYPE_CHECKING

# The web stack (and what it needs) is imported by create_app, not here:
# `scorekeeper score` imports this package and needs none of it.
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from flask import Flask


def _shipped(folder: str) -> Path:
    """``templates`` or ``static``: inside the package when installed from a wheel
    (the build copies them there), else at the top of the checkout (a source or
    editable install, so edits show at once)."""
    from pathlib import Path

    package = Path(__file__).resolve().parent
    inside = package / folder
    return inside if inside.is_dir() else package.parent / folder


def create_app(test_config: Mapping | None = None) -> Flask:
    """The app factory: config from defaults, the instance folder, the
    environment (``SCOREKEEPER_*``) and finally *test_config*."""
    from pathlib import Path

    from .web.logs import App

    app = App(
        __name__,
        instance_relative_config=True,
        template_folder=str(_shipped("templates")),
        static_folder=str(_shipped("static")),
    )
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=256 * 1024,
        WTF_CSRF_TIME_LIMIT=None,
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env("SCOREKEEPER")
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(Path(app.instance_path))

    from . import jobs, store, web
    from .table import service

    store.init_app(app, at_start=service.expire)  # shared tables left unlocked for a day go (and on access)
    jobs.init_app(app)  # a group's standing caught up outside the request, after each change
    web.init_app(app)
    return app


def _instance_secret_key(instance: Path) -> str:
    """A secret key generated once into the instance folder, readable by the owner only."""
    import os
    import secrets

    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    instance.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another worker wrote it first
        return path.read_text().strip()
    with os.fdopen(fd, "w") as f:
        f.write(key)
    return key
