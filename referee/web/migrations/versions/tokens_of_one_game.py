"""hardening: one table of every share-link token (unique across keeper, watch and group links); games.touched_hour

Revision ID: tokens_of_one_game
Revises: group_evenings_started_from
Create Date: 2026-12-07 03:40:00

A token is the link of one game only, by the database itself: every game's keeper and watch
tokens are rows of ``tokens``, whose primary key is the token.  The games already stored bring
their tokens; a token that two games share (an offline start and an import raced before this
table) stays the first game's (the lowest id), and the later game gets a fresh token of the
server's in that place.

``games.touched_hour``: the hour a game was last opened, watched or imported (retention keeps
a game in use, not only a game written); 0 for the games stored before, which retention judges
by their last write as it did.
"""
import secrets

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'tokens_of_one_game'
down_revision = 'group_evenings_started_from'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'tokens',
        sa.Column('token', sa.String(length=64), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name='fk_tokens_game_id', ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('token', name='pk_tokens'),
    )
    with op.batch_alter_table('tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tokens_game_id'), ['game_id'], unique=False)
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('touched_hour', sa.Integer(), server_default='0', nullable=False))

    games = sa.table('games', sa.column('id', sa.Integer), sa.column('keeper_token', sa.String),
                     sa.column('watch_token', sa.String))
    tokens = sa.table('tokens', sa.column('token', sa.String), sa.column('game_id', sa.Integer))
    connection = op.get_bind()
    taken = set()
    rows = []
    for game_id, keeper, watch in connection.execute(
            sa.select(games.c.id, games.c.keeper_token, games.c.watch_token).order_by(games.c.id)).all():
        for column, token in (('keeper_token', keeper), ('watch_token', watch)):
            if token in taken:  # another game's already: this game gets a fresh one there
                token = secrets.token_urlsafe(24)
                connection.execute(games.update().where(games.c.id == game_id).values({column: token}))
            taken.add(token)
            rows.append({'token': token, 'game_id': game_id})
        if len(rows) >= 1000:
            connection.execute(tokens.insert(), rows)
            rows = []
    if rows:
        connection.execute(tokens.insert(), rows)


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('touched_hour')
    with op.batch_alter_table('tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tokens_game_id'))
    op.drop_table('tokens')
