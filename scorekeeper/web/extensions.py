"""The Flask extensions' objects, made here once and bound to an app by its factory
(``init_app``): what each does for the app is said where it is set up.

- :data:`csrf`: Flask-WTF's CSRF protection of every form (``web.init_app``; the JSON
  APIs are exempt: they read no cookie).
- :data:`limiter`: Flask-Limiter's rate limits per client address (``web.security``:
  the limits and their store).
- :data:`talisman`: Flask-Talisman's security headers and HTTPS (``web.security``).
- :data:`babel`: Flask-Babel, the page's language (``web.i18n``).
"""

from __future__ import annotations

from flask_babel import Babel
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_talisman import Talisman
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
limiter = Limiter(key_func=get_remote_address)
talisman = Talisman()
babel = Babel()
