"""${message}

Revision ${up_revision}, after ${down_revision | comma,n}. Describe here what an older
database gets (table, column, type, default for the rows it holds already).
"""

from alembic import op
import sqlalchemy as sa
${imports if imports else ""}
revision = ${repr(up_revision)}
down_revision = ${repr(down_revision)}
branch_labels = ${repr(branch_labels)}
depends_on = ${repr(depends_on)}


def upgrade() -> None:
    ${upgrades if upgrades else "pass  # e.g. op.add_column('game_tables', sa.Column('x', sa.Integer(), nullable=False, server_default='0'))"}


def downgrade() -> None:
    raise NotImplementedError("mayagames migrates forward only: restore a backup to go back")
