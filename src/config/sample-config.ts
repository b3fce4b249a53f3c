import type { TurnkitConfigInput } from './schema.js';

/** The game config of the sample game in `migrations/`, used when a project has no config file. */
export const sampleGameConfig: TurnkitConfigInput = {
  game: {
    root: { table: 'campaigns', key: 'id' },
    turns: { table: 'turns', order: 'turn_number', input: ['player_input'] },
    shared: ['users'],
    exclude: [],
  },
  // The players' data: their handle and display name (keyed fakes, the handle unique as the column is), a keyed
  // fake address (unique too) and a keyed digest of the password hash.
  scrub: {
    'users.handle': 'username',
    'users.display_name': 'name',
    'users.email': 'email',
    'users.password_hash': 'hash',
  },
};
