"""Resignations and quick play (issue 23).

- ``table_meta.resigned`` (JSON, null: nobody resigned): the seats that conceded.
- ``quick_queue``: the accounts waiting to be paired for a quick game (one wait per account),
  read and claimed by every instance.
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("table_meta", sa.Column("resigned", sa.JSON(), nullable=True))
    op.create_table(
        "quick_queue",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("name", sa.String(48), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("speed", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
        sa.Column("bot_after", sa.Float(), nullable=True),
        sa.Column("table_id", sa.String(40), nullable=True))
    op.create_index("ix_quick_queue_game", "quick_queue", ["game"])


def downgrade() -> None:
    raise NotImplementedError("mayagames migrates forward only: restore a backup to go back")
