"""Alembic's environment: run by ``migrations.upgrade`` on the connection it opened (one
transaction for every revision; the caller commits or rolls back)."""

from alembic import context

config = context.config
connection = config.attributes["connection"]
context.configure(connection=connection, target_metadata=None,
                  version_table_schema=config.attributes.get("schema"),
                  transactional_ddl=True, transaction_per_migration=False)
with context.begin_transaction():
    context.run_migrations()
