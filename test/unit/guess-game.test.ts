import { describe, expect, it } from 'vitest';
import type { Catalog, ColumnInfo, TableInfo } from '../../src/db/catalog-types.js';
import { guessGame } from '../../src/init/guess-game.js';
import { chooseGame } from '../../src/init/choose-game.js';

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
