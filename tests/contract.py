"""Every answer of the JSON API held to its contract (``scorekeeper/web/api/openapi.py``):
the API tests check each answer they get, through the validation Schemathesis runs
(``tests/web/test_openapi.py``), so the contract cannot drift from the code."""

from __future__ import annotations

import contextlib
import functools
import threading

import flask
import pytest
import schemathesis
from werkzeug.test import TestResponse

from scorekeeper.web.api.openapi import contract


@functools.cache
def contract_schema():
    """The contract, read by Schemathesis."""
    return schemathesis.openapi.from_dict(contract())


def mismatch(method: str, path: str, response) -> str | None:
    """What is wrong with *response* (a Werkzeug test client's or requests' answer) to ``METHOD path``
    by the contract, or ``None``: a status the operation does not list, another media
    type, a body its schema refuses. A request that names no operation of the
    contract (an unknown address, a method the address does not take) is not checked."""
    operation = contract_schema().find_operation_by_path(method, path)
    if operation is None:
        return None
    answer = f"{method} {path} answered {response.status_code}"
    definition = operation.responses.find_by_status_code(response.status_code)
    if definition is None:
        return f"{answer}, a status the contract does not list"
    documented = operation.schema.get_content_types(operation, schemathesis.Response.from_any(response))
    sent = response.headers.get("Content-Type", "").split(";")[0].strip()
    if documented and sent not in documented:
        return f"{answer} as {sent or 'no type'}, not {', '.join(documented)}"
    try:
        operation.validate_response(response)
    except AssertionError as failure:
        return f"{answer}: {failure}"
    return None


@contextlib.contextmanager
def answers_checked():
    """Check every answer under ``/api/`` that an app of this process gives meanwhile
    (Flask's ``request_finished``, whatever app or thread) against the contract; fail
    at the end with each mismatch. A compressed answer is not read (the tests ask for
    one only to check the compression)."""
    found: list[str] = []
    lock = threading.Lock()

    def check(sender, response, **extra):
        request = flask.request
        if not request.path.startswith("/api/") or response.headers.get("Content-Encoding"):
            return
        answer = TestResponse([response.get_data()], response.status, response.headers, request._get_current_object())
        problem = mismatch(request.method, request.path, answer)
        if problem:
            with lock:
                found.append(problem)

    flask.request_finished.connect(check)
    try:
        yield found
    finally:
        flask.request_finished.disconnect(check)
    if found:
        pytest.fail("answers the contract does not allow:\n" + "\n".join(found[:20]), pytrace=False)
