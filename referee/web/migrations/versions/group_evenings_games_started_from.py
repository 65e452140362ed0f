"""group evenings: games.started_from (the game a game was started from), games.summary and summary_version

Revision ID: group_evenings_started_from
Revises: sheet_for_table
Create Date: 2026-12-07 03:50:00

A game started from another (a rematch, the sheet "Score this hand" made for a table, a table
started from a sheet) is in that game's group, on its evening (issue 36). The games stored
before: a sheet made for a table (made_for "<kind>:<id>") and a table started from a sheet
(its setup's "sheet" keeper token) get their source, and the source's group when they had none.

games.summary keeps what a game's records come to for its group's pages (results, stake, end) as
computed at games.summary_version, so a fresh process does not replay every game again.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'group_evenings_started_from'
down_revision = 'sheet_for_table'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('started_from', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('fk_games_started_from', 'games', ['started_from'], ['id'], ondelete='SET NULL')
        batch_op.add_column(sa.Column('summary', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('summary_version', sa.Integer(), nullable=True))
    games = sa.table('games', sa.column('id', sa.Integer), sa.column('setup', sa.JSON),
                     sa.column('made_for', sa.String), sa.column('group_id', sa.Integer),
                     sa.column('keeper_token', sa.String), sa.column('started_from', sa.Integer))
    connection = op.get_bind()
    made = connection.execute(sa.select(games.c.id, games.c.made_for, games.c.group_id)
                              .where(games.c.made_for.is_not(None))).all()
    from_sheet = connection.execute(sa.select(games.c.id, games.c.setup, games.c.group_id)
                                    .where(sa.cast(games.c.setup, sa.Text).like('%"sheet"%'))).all()
    sources = []
    for game_id, key, group in made:
        source = key.rsplit(':', 1)[-1]
        if source.isascii() and source.isdigit():
            sources.append((game_id, group, sa.select(games.c.id, games.c.group_id).where(games.c.id == int(source))))
    for game_id, setup, group in from_sheet:
        token = setup.get('sheet') if isinstance(setup, dict) else None
        if isinstance(token, str) and token:
            sources.append((game_id, group, sa.select(games.c.id, games.c.group_id).where(games.c.keeper_token == token)))
    for game_id, group, query in sources:
        found = connection.execute(query).first()
        if found is None:
            continue
        values = {'started_from': found[0]}
        if group is None and found[1] is not None:
            values['group_id'] = found[1]
        connection.execute(games.update().where(games.c.id == game_id).values(**values))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('summary_version')
        batch_op.drop_column('summary')
        batch_op.drop_constraint('fk_games_started_from', type_='foreignkey')
        batch_op.drop_column('started_from')
