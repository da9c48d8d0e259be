"""The database object of the app (Flask-SQLAlchemy) and the declarative base of its models.

A module of its own, so that the models, the queries and ``store.init_app``
all import it from here and none of them imports another in a circle.
"""

from __future__ import annotations

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """The base of every table class (``db.Model``)."""


db = SQLAlchemy(model_class=Base)
