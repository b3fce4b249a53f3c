import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { httpSutCaller } from '../../src/sut/sut-http-call.js';

describe('the http SUT in a rollout', () => {
  let llm: FakeLlmServer;
  beforeAll(async () => {
    llm = await startFakeLlmServer(() => ({ content: 'deck 2' }));
  });
  afterAll(async () => llm?.close());

  it('sends the turns played so far as the conversation before this turn', async () => {
    const outcome = await httpSutCaller({
      type: 'http',
      maxOutput: 131_072,
      baseUrl: llm.openaiBaseUrl,
      model: 'gm',
      system: 'You run the game.',
      timeout: 10,
      retries: 0,
    })({
      databaseUrl: 'postgres://127.0.0.1/x',
      request: {
        campaign: '7',
        turn: 25,
        input: { player_input: 'and now?' },
        caseFile: '# Case',
        fixture: 'f',
        rep: 1,
        transcript: [
          { turn: 23, input: { player_input: 'where?' }, response: 'deck 2' },
          { turn: 24, input: { player_input: 'go' }, response: 'you go' },
        ],
      },
    });
    expect(outcome.response).toBe('deck 2');
    expect(llm.requests.at(-1)!.body.messages).toEqual([
      { role: 'system', content: 'You run the game.' },
      { role: 'user', content: 'Player input for turn 23:\nwhere?' },
      { role: 'assistant', content: 'deck 2' },
      { role: 'user', content: 'Player input for turn 24:\ngo' },
      { role: 'assistant', content: 'you go' },
      { role: 'user', content: '# Case\n\n---\n\nPlayer input for turn 25:\nand now?' },
    ]);
  });
});
