"""The database object of the app (Flask-SQLAlchemy) and the declarative base of its models.

A module of its own, so that the models, the queries and ``store.init_app``
all import it from here and none of them imports another in a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """The base of every table class (``db.Model``)."""


db = SQLAlchemy(model_class=Base)

# The base the tables subclass: ``db.Model`` (Base with Flask-SQLAlchemy's
# mixins). Type checkers cannot subclass an attribute, so to them it is Base.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
