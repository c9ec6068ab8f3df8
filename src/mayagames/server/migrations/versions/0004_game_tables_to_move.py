"""The seat to move, stored with the table (issue 26: lists and profiles from stored rows).

- ``game_tables.to_move`` (INTEGER, null: not known without a replay): written at creation,
  with every move and undo; lists read it instead of replaying the game. A table stored
  before it existed is replayed once, and its next move stores it.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("to_move", sa.Integer(), nullable=True))


def downgrade() -> None:
    raise NotImplementedError("mayagames migrates forward only: restore a backup to go back")
