"""The shared table's two blueprints: ``tables``, the pages (``/t/<code>``, :mod:`.pages`), and
``table_api``, the JSON API (``/api/tables``, :mod:`.api`); both find tables, count wrong
codes and answer refusals through :mod:`.access`. The table's rules are ``scorekeeper.table``."""
