"""The blueprint ``offline``: the app on the home screen and without a connection
(``/sw.js``, ``/manifest/<lang>.webmanifest``, ``/offline``, ``/form-token``)."""
