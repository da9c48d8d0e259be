"""The shared table's two blueprints: ``tables``, the pages (``/t/<code>``, :mod:`.pages`), and
``table_api``, the JSON API (``/api/tables``, :mod:`.api`); both find tables, count wrong
codes and answer refusals through :mod:`.access`; :mod:`.stream` pushes every change of a table to
the phones watching it (``/socket.io/``), installed by the app factory as the publisher of the
table's events. The table's rules are ``scorekeeper.table``."""
