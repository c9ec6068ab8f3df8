"""Alembic's environment: run by ``migrations.upgrade`` on the connection it opened (one
transaction for every revision; the caller commits or rolls back). Imported any other way
(a tool walking the package), it does nothing."""

from alembic import context


def run() -> None:
    config = context.config
    context.configure(connection=config.attributes["connection"], target_metadata=None,
                      version_table_schema=config.attributes.get("schema"),
                      transactional_ddl=True, transaction_per_migration=False)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # Alembic is running this environment
    run()
