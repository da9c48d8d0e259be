"""The blueprint ``sheets``: the new-game form and a sheet's link (``/``, ``/sheet/<token>``)."""
