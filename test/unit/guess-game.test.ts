import { describe, expect, it } from 'vitest';
import type { Catalog, ColumnInfo, TableInfo } from '../../src/db/catalog-types.js';
import { guessGame } from '../../src/init/game-questions.js';
import { chooseGame } from '../../src/init/choose-game.js';
import { rootCandidates, turnsCandidates } from '../../src/init/candidates.js';
import { GameChooser } from '../../src/init/game-questions.js';
import { NO_FACTS, type InitFacts, type TurnSharing } from '../../src/init/read-facts.js';
import { proposeDeclarations } from '../../src/init/declarations.js';
import { PRISMA_STYLE_GAME } from '../helpers/prisma-style-schema.js';

const column = (name: string, type: string, kind: ColumnInfo['codec']['kind']): ColumnInfo => ({
  name,
  type,
  nullable: true,
  default: null,
  identity: null,
  generated: null,
  codec: { kind },
});

function table(name: string, columns: ColumnInfo[], foreignKeys: [string, string][] = []): TableInfo {
  return {
    name,
    schema: 'public',
    table: name,
    sql: `"public"."${name}"`,
    from: `ONLY "public"."${name}"`,
    columns,
    primaryKey: ['id'],
    uniqueKeys: [],
    foreignKeys: foreignKeys.map(([col, ref]) => ({
      name: `${name}_${col}_fkey`,
      columns: [col],
      references: { table: ref, columns: ['id'] },
      deferrable: false,
      initiallyDeferred: false,
      onDelete: 'no action',
    })),
  };
}

const catalogOf = (...tables: TableInfo[]): Catalog => ({
  tables: new Map(tables.map((t) => [t.name, t])),
  serverVersion: '15',
});

describe('init guesses the game from the catalog', () => {
  it("a chat-shaped game: uuid keys, messages ordered by a timestamp, the player's content as input", () => {
    const catalog = catalogOf(
      table('accounts', [column('id', 'uuid', 'text'), column('email', 'text', 'text')]),
      table(
        'conversations',
        [column('id', 'uuid', 'text'), column('title', 'text', 'text'), column('owner_id', 'uuid', 'text')],
        [['owner_id', 'accounts']],
      ),
      table(
        'messages',
        [
          column('id', 'uuid', 'text'),
          column('conversation_id', 'uuid', 'text'),
          column('sent_at', 'timestamp with time zone', 'timestamptz'),
          column('content', 'text', 'text'),
          column('reply', 'text', 'text'),
          column('tokens', 'integer', 'int'),
        ],
        [['conversation_id', 'conversations']],
      ),
    );
    expect(guessGame(catalog)).toEqual({
      root: { table: 'conversations', key: 'id' },
      turns: { table: 'messages', order: 'sent_at', input: ['content'] },
      shared: ['accounts'],
    });
  });

  it('prefers the turn number over other integer columns, and the campaign over a location the turn also points at', () => {
    const catalog = catalogOf(
      table('campaigns', [column('id', 'bigint', 'bigint'), column('title', 'text', 'text')]),
      table(
        'locations',
        [column('id', 'bigint', 'bigint'), column('campaign_id', 'bigint', 'bigint'), column('name', 'text', 'text')],
        [['campaign_id', 'campaigns']],
      ),
      table(
        'turns',
        [
          column('id', 'bigint', 'bigint'),
          column('campaign_id', 'bigint', 'bigint'),
          column('location_id', 'bigint', 'bigint'),
          column('ship_minute', 'integer', 'int'),
          column('turn_number', 'integer', 'int'),
          column('player_input', 'text', 'text'),
          column('narration', 'text', 'text'),
        ],
        [
          ['campaign_id', 'campaigns'],
          ['location_id', 'locations'],
        ],
      ),
    );
    const chosen = chooseGame(catalog, {});
    expect(chosen).toMatchObject({
      root: { table: 'campaigns', key: 'id' },
      turns: { table: 'turns', order: 'turn_number', input: ['player_input'] },
      output: 'narration',
      campaignColumnSql: '"campaign_id"',
    });
    expect(chosen.caseTables).toEqual([{ table: 'locations', columns: ['name'] }]);
  });

  it('names the flag and what the database has when a choice is not there', () => {
    const catalog = catalogOf(
      table('campaigns', [column('id', 'bigint', 'bigint')]),
      table(
        'turns',
        [
          column('id', 'bigint', 'bigint'),
          column('campaign_id', 'bigint', 'bigint'),
          column('n', 'integer', 'int'),
          column('said', 'text', 'text'),
        ],
        [['campaign_id', 'campaigns']],
      ),
    );
    expect(() => chooseGame(catalog, { turns: 'moves' })).toThrow(
      'init --turns moves: no such table in the database (it has campaigns, turns)',
    );
    expect(() => chooseGame(catalog, { order: 'turn_no' })).toThrow(
      'init --order turn_no: turns has no such column (it has id, campaign_id, n, said)',
    );
    // A near name is suggested, as config errors do.
    expect(() => chooseGame(catalog, { turns: 'turn' })).toThrow(
      'init --turns turn: no such table in the database (did you mean "turns"?) (it has campaigns, turns)',
    );
    expect(() => chooseGame(catalog, { order: 'siad' })).toThrow(
      'init --order siad: turns has no such column (did you mean "said"?) (it has id, campaign_id, n, said)',
    );
    expect(() => chooseGame(catalogOf(table('things', [column('id', 'bigint', 'bigint')])), {})).toThrow(
      /no table of the database looks like turns of a campaign/,
    );
  });
});

// A Prisma-shaped catalog built by hand: text cuid ids, a room two foreign keys above its narration (through the
// game session), an enum role column, a unique join code, votes whose roomId has no foreign key, _prisma_migrations.
function prismaCatalog(): Catalog {
  const text = (name: string, nullable = false): ColumnInfo => ({ ...column(name, 'text', 'text'), nullable });
  const stamp = (name: string): ColumnInfo => column(name, 'timestamp(3) without time zone', 'timestamp');
  const int = (name: string): ColumnInfo => column(name, 'integer', 'int');
  const rooms = table('rooms', [text('id'), text('code'), text('name'), stamp('createdAt')]);
  rooms.uniqueKeys = [];
  return catalogOf(
    table('_prisma_migrations', [column('id', 'character varying(36)', 'text'), text('checksum')]),
    table('User', [text('id'), text('username'), text('email')]),
    rooms,
    table(
      'Player',
      [text('id'), text('roomId'), text('userId'), text('characterName'), stamp('createdAt')],
      [
        ['roomId', 'rooms'],
        ['userId', 'User'],
      ],
    ),
    table('GameSession', [text('id'), text('roomId'), stamp('startedAt')], [['roomId', 'rooms']]),
    table(
      'NarrativeEntry',
      [
        text('id'),
        text('playerId', true),
        text('sessionId'),
        int('turn'),
        column('type', '"EntryType"', 'text'),
        text('content'),
        stamp('createdAt'),
      ],
      [
        ['playerId', 'Player'],
        ['sessionId', 'GameSession'],
      ],
    ),
    table('votes', [text('id'), text('roomId'), int('turn'), text('choice')]),
  );
}

function prismaFacts(rows: 'shared' | 'one per turn' | 'none'): InitFacts {
  const most = rows === 'shared' ? 3 : rows === 'one per turn' ? 1 : 0;
  return {
    enums: new Map([['NarrativeEntry.type', ['ACTION', 'DICE', 'NARRATION', 'SYSTEM']]]),
    unique: new Map([
      ['rooms', [['code']]],
      ['GameSession', [['roomId']]],
      ['User', [['email']]],
    ]),
    turnSharing: new Map<string, TurnSharing>([
      // Under one player each turn has one row (the action); under one session three (action, dice, narration).
      [
        'NarrativeEntry.turn',
        { rows: rows === 'none' ? 0 : 12, most: { '': most ? 6 : 0, playerId: most ? 1 : 0, sessionId: most } },
      ],
      ['votes.turn', { rows: rows === 'none' ? 0 : 4, most: { '': most ? 1 : 0 } }],
    ]),
    roleValues: new Map(),
  };
}

describe('init on a Prisma-style schema', () => {
  it('ranks the root by the tables below it, accounts and migration tables never first', () => {
    expect(rootCandidates(prismaCatalog())).toEqual([
      { value: 'rooms', why: '3 tables below it (Player, GameSession, NarrativeEntry)' },
      { value: 'GameSession', why: '1 table below it (NarrativeEntry)' },
      { value: 'Player', why: '1 table below it (NarrativeEntry)' },
      { value: 'User', why: '2 tables below it (Player, NarrativeEntry); named like accounts, so likely shared' },
    ]);
  });

  it('offers a turns table two foreign keys below the root, through the session every entry has', () => {
    const candidates = turnsCandidates(prismaCatalog(), 'rooms');
    expect(candidates[0]).toMatchObject({
      value: 'NarrativeEntry',
      why: '2 foreign keys below rooms (via GameSession), named like turns, text content',
    });
    expect(candidates.map((candidate) => candidate.value).sort()).toEqual(['GameSession', 'NarrativeEntry', 'Player']);
  });

  it('writes turn and role when rows share the turn under one session, and orders rows by createdAt', () => {
    const chosen = chooseGame(prismaCatalog(), {}, prismaFacts('shared'));
    // The game the Prisma-style integration tests run with (and init writes there), from the catalog alone.
    const { root, turns, shared, exclude } = PRISMA_STYLE_GAME;
    expect(chosen).toMatchObject({
      root,
      turns,
      shared,
      exclude,
      turnsSql: '"public"."NarrativeEntry" AS t0 JOIN "public"."GameSession" AS t1 ON t1."id" = t0."sessionId"',
      campaignColumnSql: 't1."roomId"',
    });
    expect(chosen.declarations).toEqual({
      references: [{ key: 'votes.roomId', value: 'rooms', why: 'named like the key of rooms, with no foreign key' }],
      turnColumns: [
        { key: 'votes', value: 'turn', why: 'named like a turn, and votes has no foreign-key path to NarrativeEntry' },
      ],
      unique: [
        {
          key: 'rooms.code',
          value: 'fresh',
          why: 'unique, not a key: each scratch copy gets a fresh value of the same shape',
        },
      ],
      missing: [],
    });
    expect(chosen.inferred).toContain(
      'turn turn: rows share its values (up to 3 rows in one turn under one GameSession)',
    );
  });

  it('proposes no turn column when each row has its own turn value, and a role then starts a turn at each input', () => {
    const chosen = chooseGame(prismaCatalog(), {}, prismaFacts('one per turn'));
    expect(chosen.turns).toEqual({
      table: 'NarrativeEntry',
      order: 'turn',
      input: ['content'],
      role: { column: 'type', input: ['ACTION'], output: 'NARRATION' },
    });
  });

  it('with no rows to count, proposes the turn column beside an enum role', () => {
    expect(chooseGame(prismaCatalog(), {}, prismaFacts('none')).turns).toMatchObject({
      turn: 'turn',
      order: 'createdAt',
    });
  });

  it('says what is missing when rows share a turn but no column names the player', () => {
    const facts = { ...prismaFacts('shared'), enums: new Map() };
    const chosen = chooseGame(prismaCatalog(), {}, facts);
    expect(chosen.turns.turn).toBeUndefined();
    expect(chosen.declarations?.missing).toEqual([
      "game.turns.turn: rows of NarrativeEntry share values of turn, but no column says which rows are the player's; add turn: 'turn' and role: { column: 'COLUMN', input: ['VALUE'] }",
    ]);
  });

  it('checks each answer as it is given: a wrong one stays asked with the reason, a number picks a candidate', () => {
    const chooser = new GameChooser(prismaCatalog(), prismaFacts('shared'));
    expect(chooser.next()).toMatchObject({ id: 'root', fallback: 'rooms' });
    expect(chooser.answer('_prisma_migrations')).toBe("_prisma_migrations: a migration tool's table, not a game's");
    expect(chooser.answer('User ')).toBeUndefined();
    expect(chooser.answer('')).toBeUndefined(); // key: the primary key
    // Under User, the narration is reached through Player only.
    expect(chooser.next()).toMatchObject({
      id: 'turns',
      candidates: [{ value: 'NarrativeEntry' }, { value: 'Player' }],
    });
    expect(chooser.answer('votes')).toBe(
      'votes: no foreign-key path leads from it to User (below User: Player, NarrativeEntry)',
    );
    expect(chooser.next()?.id).toBe('turns');
    expect(chooser.answer('1')).toBeUndefined();
    expect(chooser.next()?.id).toBe('order');
    expect(chooser.answer('content')).toBe(
      'content: NarrativeEntry.content is text; use an integer or timestamp column',
    );
    expect(chooser.answer('createdAt')).toBeUndefined();
    expect(chooser.answer('turn')).toBeUndefined();
    expect(chooser.answer('type=PLAYER')).toBe(
      'PLAYER: not a value of NarrativeEntry.type (it has ACTION, DICE, NARRATION, SYSTEM)',
    );
    expect(chooser.answer('none')).toBe("rows sharing turn are one turn: name the player's rows as COLUMN=VALUE");
    expect(chooser.answer('type=ACTION')).toBeUndefined();
    expect(chooser.answer('9')).toBe('9: no such candidate (there are 1)');
    expect(chooser.answer('content')).toBeUndefined();
    expect(chooser.answer('none')).toBeUndefined();
    expect(chooser.next()).toBeUndefined();
    expect(chooser.result().root).toEqual({ table: 'User', key: 'id' });
  });

  it('without a terminal, the first wrong answer is the error, naming its flag', () => {
    const catalog = prismaCatalog();
    const facts = prismaFacts('shared');
    expect(() => chooseGame(catalog, { turns: 'votes', input: ['nope'] }, facts)).toThrow(
      'init --turns votes: no foreign-key path leads from it to rooms (below rooms: Player, GameSession, NarrativeEntry)',
    );
    expect(() => chooseGame(catalog, { role: 'type=PLAYER', input: ['nope'] }, facts)).toThrow(
      'init --role type=PLAYER: PLAYER: not a value of NarrativeEntry.type (it has ACTION, DICE, NARRATION, SYSTEM)',
    );
    expect(() => chooseGame(catalog, { root: '_prisma_migrations' }, facts)).toThrow(
      "init --root _prisma_migrations: a migration tool's table, not a game's",
    );
  });

  it('never offers a migration table, even one other tables hang below', () => {
    const catalog = prismaCatalog();
    catalog.tables.set('schema_migrations', table('schema_migrations', [column('id', 'bigint', 'bigint')]));
    catalog.tables.set(
      'migration_notes',
      table(
        'migration_notes',
        [column('id', 'bigint', 'bigint'), column('migration_id', 'bigint', 'bigint'), column('seq', 'integer', 'int')],
        [['migration_id', 'schema_migrations']],
      ),
    );
    const offered = rootCandidates(catalog).map((candidate) => candidate.value);
    expect(offered).toContain('rooms');
    expect(offered).not.toContain('schema_migrations');
    expect(chooseGame(catalog, {}, prismaFacts('shared')).exclude).toEqual(['_prisma_migrations', 'schema_migrations']);
  });
});

describe("init's declarations beyond the names", () => {
  const text = (name: string): ColumnInfo => ({ ...column(name, 'text', 'text'), nullable: false });
  const int = (name: string): ColumnInfo => column(name, 'integer', 'int');

  it('never slices the root or the tables above the turns by their turn counters; skips polymorphic pairs', () => {
    const catalog = catalogOf(
      table('Room', [text('id'), int('round')]),
      table('GameSession', [text('id'), text('roomId'), int('turn')], [['roomId', 'Room']]),
      table(
        'Message',
        [
          text('id'),
          text('sessionId'),
          int('turn'),
          text('authorId'),
          text('content'),
          column('sentAt', 'timestamp', 'timestamp'),
        ],
        [['sessionId', 'GameSession']],
      ),
      table('Action', [text('id'), text('sessionId'), int('turnNumber')]),
      table(
        'Comment',
        [text('id'), text('commentable_id'), text('commentable_type'), text('roomId')],
        [['roomId', 'Room']],
      ),
    );
    const declarations = proposeDeclarations(catalog, NO_FACTS, {
      root: 'Room',
      turns: 'Message',
      shared: [],
      exclude: [],
    });
    // Action.sessionId ends like GameSession's name: a reference, and then Action is owned with its own turn column.
    expect(declarations.references).toEqual([
      { key: 'Action.sessionId', value: 'GameSession', why: 'named like the key of GameSession, with no foreign key' },
    ]);
    expect(declarations.turnColumns).toEqual([
      {
        key: 'Action',
        value: 'turnNumber',
        why: 'named like a turn, and Action has no foreign-key path to Message',
      },
    ]);
    expect(declarations.missing).toEqual([
      "game.references: Message.authorId is named like a key of another row, but no table is named so; if it refers to one, add 'Message.authorId': 'TABLE'",
    ]);
  });

  it('a chat game: a turn starts at each user message, ordered by when it was sent', () => {
    const catalog = catalogOf(
      table('chats', [text('id'), text('title')]),
      table(
        'chat_messages',
        [
          text('id'),
          text('chat_id'),
          text('role'),
          text('content'),
          column('created_at', 'timestamptz', 'timestamptz'),
        ],
        [['chat_id', 'chats']],
      ),
    );
    const facts: InitFacts = {
      ...NO_FACTS,
      roleValues: new Map([['chat_messages.role', ['assistant', 'user', 'system']]]),
    };
    expect(chooseGame(catalog, {}, facts)).toMatchObject({
      root: { table: 'chats', key: 'id' },
      turns: {
        table: 'chat_messages',
        order: 'created_at',
        role: { column: 'role', input: ['user'], output: 'assistant' },
        input: ['content'],
      },
      declarations: { references: [], turnColumns: [], unique: [], missing: [] },
    });
  });
});

describe('init on a chat-style game master shaped like the Django one', () => {
  // An adventure, its chat history (a role column holding user, assistant and system rows), and tables named like
  // turns that are not: faction actions, adventure events, an analysis log of the player's moves.
  const column = (name: string, type: string, nullable = false) => ({
    name,
    type,
    nullable,
    default: null,
    identity: null,
    generated: null,
    codec: {
      kind: type === 'text' ? ('text' as const) : type === 'integer' ? ('int' as const) : ('timestamptz' as const),
    },
  });
  const table = (name: string, columns: ReturnType<typeof column>[], fks: [string, string][]): TableInfo => ({
    name,
    schema: 'public',
    table: name,
    sql: `"public"."${name}"`,
    from: `ONLY "public"."${name}"`,
    columns: [column('id', 'integer'), ...columns],
    primaryKey: ['id'],
    uniqueKeys: [],
    foreignKeys: fks.map(([col, to]) => ({
      name: `${name}_${col}_fkey`,
      columns: [col],
      references: { table: to, columns: ['id'] },
      deferrable: false,
      initiallyDeferred: false,
      onDelete: 'no action' as const,
    })),
  });
  const catalog = (): Catalog => ({
    serverVersion: '15',
    tables: new Map(
      [
        table('adventures_adventure', [column('title', 'text')], []),
        table(
          'adventures_factionaction',
          [column('adventure_id', 'integer'), column('action', 'text'), column('created_at', 'timestamptz')],
          [['adventure_id', 'adventures_adventure']],
        ),
        table(
          'adventures_adventureevent',
          [column('adventure_id', 'integer'), column('text', 'text'), column('created_at', 'timestamptz')],
          [['adventure_id', 'adventures_adventure']],
        ),
        table(
          'adventures_historyentry',
          [
            column('adventure_id', 'integer'),
            column('role', 'text'),
            column('content', 'text'),
            column('created_at', 'timestamptz'),
          ],
          [['adventure_id', 'adventures_adventure']],
        ),
      ].map((info) => [info.name, info]),
    ),
  });
  const facts = (): InitFacts => ({
    ...NO_FACTS,
    roleValues: new Map([['adventures_historyentry.role', ['assistant', 'user', 'system']]]),
  });

  it('ranks the chat history first, by its shape, ahead of the tables named like turns', () => {
    const candidates = turnsCandidates(catalog(), 'adventures_adventure', facts());
    expect(candidates[0]).toMatchObject({
      value: 'adventures_historyentry',
      why: 'a foreign key to adventures_adventure, a role column holding user and assistant rows, named like turns, text content',
    });
    const chosen = chooseGame(catalog(), { root: 'adventures_adventure' }, facts());
    expect(chosen.turns).toMatchObject({ table: 'adventures_historyentry', input: ['content'] });
  });

  it('--yes refuses, naming what to answer, where no table is clearly ahead', () => {
    expect(() => chooseGame(catalog(), { root: 'adventures_adventure' })).toThrow(
      /^init: adventures_historyentry and adventures_adventureevent look as much like the turns table .*; name it with --turns TABLE$/,
    );
  });
});
