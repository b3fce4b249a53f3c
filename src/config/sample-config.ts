import type { TurnkitConfigInput } from './schema.js';

/** The game config of the sample game in `migrations/`, used when a project has no config file. */
export const sampleGameConfig: TurnkitConfigInput = {
  game: {
    root: { table: 'campaigns', key: 'id' },
    turns: { table: 'turns', order: 'turn_number', input: ['player_input'] },
    shared: ['users'],
    exclude: [],
  },
  // The players' sign-in data: a keyed fake address (unique, as the column is) and a keyed digest of the hash.
  scrub: {
    'users.email': 'email',
    'users.password_hash': 'hash',
  },
};
