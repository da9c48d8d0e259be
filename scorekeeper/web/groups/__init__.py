"""The blueprint ``groups``: a phone's groups, invite links and a group's roster (``/groups``, ``/join``)."""
