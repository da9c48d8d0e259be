"""Compiled templates kept on disk, so that a new worker does not compile them again.

Jinja compiles each template to Python on its first use in a process: about
0.3 s of CPU for the first sheet a new worker serves, and gunicorn starts new
workers all the time (``max_requests``). With a bytecode cache the compiled
code is written once to a folder and loaded by every later process (a
``marshal`` load, a few milliseconds). Each entry carries a checksum of its
template's source, so an edited template is compiled afresh, never served stale.

``TEMPLATE_CACHE_DIR`` (``SCOREKEEPER_TEMPLATE_CACHE_DIR``) names the folder;
unset, Jinja's own per-user folder in the system's temporary directory is used
(created with mode 0700, refused if another user owns it); an empty value
turns the cache off. A folder that cannot be written only costs the compiling:
pages are served as without a cache.
"""

from __future__ import annotations

import logging

from flask import Flask
from jinja2 import FileSystemBytecodeCache
from jinja2.bccache import Bucket

log = logging.getLogger(__name__)


class _TemplateCache(FileSystemBytecodeCache):
    """Jinja's file cache, but a failed read or write is no error: the template
    is compiled, and the page served, as without a cache."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except OSError as error:  # Jinja passes over a missing file, not every fault of the folder
            log.debug("compiled template not read: %s", error)

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError as error:
            log.debug("compiled template not cached: %s", error)


def init_app(app: Flask) -> None:
    """Give *app*'s Jinja environment the bytecode cache set by ``TEMPLATE_CACHE_DIR``."""
    folder = app.config.get("TEMPLATE_CACHE_DIR")
    if folder == "":
        return
    try:
        app.jinja_env.bytecode_cache = _TemplateCache(folder or None)
    except (OSError, RuntimeError) as error:  # no temporary folder, or one owned by someone else
        log.warning("templates are compiled in each process: no cache folder (%s)", error)
