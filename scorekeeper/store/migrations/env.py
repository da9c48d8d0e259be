"""Alembic environment: migrates the database of the running Flask app.

Logging is left to the app (no ``fileConfig``: it would silence the app's loggers).
SQLite gets batch mode so later ALTERs work there too.
"""

from alembic import context
from flask import current_app

config = context.config
target_db = current_app.extensions["migrate"].db
config.set_main_option("sqlalchemy.url", target_db.engine.url.render_as_string(hide_password=False).replace("%", "%%"))


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_db.metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    with target_db.engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_db.metadata,
            render_as_batch=True,
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
