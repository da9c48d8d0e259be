"""The shared table ("Score together"): several phones enter one game, one kingdom each.

- :mod:`.model`: the table's rules, plain and typed like the engine (no Flask, no database);
- :mod:`.service`: the only code that changes a table: one transaction per change, then one publication;
- :mod:`.events`: where each change is published (one small interface; the web layer's stream,
  :mod:`scorekeeper.web.tables.stream`, installs itself as the publisher and pushes the table to every
  phone watching it).

The store (:mod:`scorekeeper.store.tables`) keeps the rows; the pages, the JSON API and the stream are
thin over the service. Nothing here imports Flask or Socket.IO.
"""
