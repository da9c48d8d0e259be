"""The shared table ("Score together"): several phones enter one game, one kingdom each.

- :mod:`.model`: the table's rules, plain and typed like the engine (no Flask, no database);
- :mod:`.service`: the only code that changes a table: one transaction per change, then one announcement;
- :mod:`.live`: the announcement pushed to every phone watching the table (Socket.IO, through Redis
  when several processes serve the app).

The store (:mod:`scorekeeper.store.tables`) keeps the rows; the pages and the JSON API are thin over the service.
"""
