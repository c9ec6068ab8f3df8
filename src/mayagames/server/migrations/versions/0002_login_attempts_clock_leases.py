"""Login attempts reserved in one row per key, and clock leases (issue 24).

- ``login_attempts`` (key, since, attempts): the login throttle counts an attempt in one
  conditional row update before the password is checked, whatever the concurrency; it
  replaces ``login_failures`` (one row per failure), which is dropped (its counts only ever
  mattered for five minutes).
- ``clock_leases`` (table_id, owner, expires_at): which instance times out a table's
  expired clock, watched or not.
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_attempts",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("since", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False))
    op.create_index("ix_login_attempts_since", "login_attempts", ["since"])
    op.create_table(
        "clock_leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False))
    op.drop_index("ix_login_failures_key", table_name="login_failures")
    op.drop_index("ix_login_failures_at", table_name="login_failures")
    op.drop_table("login_failures")


def downgrade() -> None:
    raise NotImplementedError("mayagames migrates forward only: restore a backup to go back")
