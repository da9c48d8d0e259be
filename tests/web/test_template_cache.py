"""Compiled templates kept on disk (web/template_cache.py): a new process loads
them instead of compiling; a folder that cannot be written costs nothing else."""

from __future__ import annotations

import os

import pytest
from jinja2 import FileSystemBytecodeCache

from tests.conftest import make_test_app


@pytest.fixture
def counting(monkeypatch):
    """Count Jinja's compilations of template source (a load from the cache is none)."""
    from jinja2 import Environment

    calls = []
    original = Environment.compile

    def compile_(self, source, *args, **kwargs):
        calls.append(args[0] if args else kwargs.get("name"))
        return original(self, source, *args, **kwargs)

    monkeypatch.setattr(Environment, "compile", compile_)
    return calls


def test_a_second_app_loads_the_compiled_templates_and_serves_the_same_page(tmp_path, counting):
    folder = tmp_path / "compiled"
    folder.mkdir()
    first = make_test_app(tmp_path, TEMPLATE_CACHE_DIR=str(folder))
    page = first.test_client().get("/").get_data(as_text=True)
    compiled_first = len(counting)
    assert compiled_first > 0 and len(os.listdir(folder)) > 0
    second = make_test_app(tmp_path, TEMPLATE_CACHE_DIR=str(folder))
    assert isinstance(second.jinja_env.bytecode_cache, FileSystemBytecodeCache)
    again = second.test_client().get("/").get_data(as_text=True)
    assert len(counting) == compiled_first  # nothing compiled again
    strip = lambda html: html.split('name="csrf_token"')[0]  # noqa: E731 (the token differs)
    assert strip(again) == strip(page)


def test_an_edited_template_is_compiled_afresh_never_served_stale(tmp_path):
    folder = tmp_path / "compiled"
    folder.mkdir()
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "t.html").write_text("one")
    first = make_test_app(tmp_path, TEMPLATE_CACHE_DIR=str(folder))
    first.jinja_loader.searchpath.insert(0, str(templates))
    assert first.jinja_env.get_template("t.html").render() == "one"
    (templates / "t.html").write_text("two")
    second = make_test_app(tmp_path, TEMPLATE_CACHE_DIR=str(folder))
    second.jinja_loader.searchpath.insert(0, str(templates))
    assert second.jinja_env.get_template("t.html").render() == "two"


def test_a_folder_that_is_not_one_still_serves_every_page(tmp_path):
    """Nothing can be read from it or written to it (as with a read-only disk)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    app = make_test_app(tmp_path, TEMPLATE_CACHE_DIR=str(blocker))
    assert app.test_client().get("/").status_code == 200


def test_an_empty_setting_turns_the_cache_off(tmp_path):
    app = make_test_app(tmp_path, TEMPLATE_CACHE_DIR="")
    assert app.jinja_env.bytecode_cache is None
    assert app.test_client().get("/").status_code == 200
