"""Baseline: the layout of the last release without migrations (``migrations/baseline.py``).

A new database gets every table; a database an older release made (no ``alembic_version``)
gets the tables and columns it lacks: ``game_tables.version`` (INTEGER NOT NULL DEFAULT 0),
``game_tables.seed_fixed`` (BOOLEAN NOT NULL DEFAULT false), ``game_moves.told`` (JSON, null:
told again on load), the indexes, and the tables of later features. A layout no release
wrote is refused, nothing changed.
"""

from alembic import op

from mayagames.server.migrations.baseline import adopt

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    adopt(op.get_bind())


def downgrade() -> None:
    raise NotImplementedError("mayagames migrates forward only: restore a backup to go back")
