"""The blueprint ``api``: scoring and the points so far as JSON (``/api/score``,
``/api/preview``), and the JSON API's OpenAPI contract (:mod:`.openapi`)."""
