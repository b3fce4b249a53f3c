import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RETRY_NOW, startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { httpSutCaller } from '../../src/sut/sut-http-call.js';
import type { HttpSut } from '../../src/sut/sut-http.js';
import type { SutContext } from '../../src/sut/sut-request.js';

const CONTEXT: SutContext = {
  databaseUrl: 'postgres://turnkit:secret@127.0.0.1:1/nowhere',
  request: {
    campaign: '7',
    turn: 23,
    input: { player_input: 'Where is the mess hall?' },
    caseFile: '# Case\n',
    fixture: 'f',
    rep: 1,
  },
  secrets: ['sk-test-key-123'],
};

describe('the http SUT through the OpenAI SDK, against a fake server', () => {
  let server: FakeLlmServer;
  const sut = (more: Partial<HttpSut> = {}): HttpSut => ({
    type: 'http',
    baseUrl: server.openaiBaseUrl,
    model: 'gm-small',
    timeout: 5,
    retries: 2,
    maxOutput: 131_072,
    ...more,
  });

  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  beforeEach(() => server.reset());
  afterAll(async () => {
    await server?.close();
  });

  it('retries a 429 and records the answer of the 200 with its usage; the key only in the header', async () => {
    server.respond((_request, index) =>
      index === 0
        ? { status: 429, headers: RETRY_NOW }
        : { content: 'Deck 2, aft of the lift.', usage: { input: 1234, output: 56 } },
    );
    const outcome = await httpSutCaller(sut(), { apiKey: 'sk-test-key-123' })(CONTEXT);
    expect(outcome.error).toBeUndefined();
    expect(outcome.response).toBe('Deck 2, aft of the lift.');
    expect(outcome.usage).toEqual({ inputTokens: 1234, outputTokens: 56 });
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.headers.authorization).toBe('Bearer sk-test-key-123');
      expect(request.text).not.toContain('sk-test-key-123');
      expect(request.body.model).toBe('gm-small');
    }
  });

  it('retries a 500 and gives up after its retries with an http error naming the status', async () => {
    server.respond(() => ({ status: 500, headers: RETRY_NOW }));
    const outcome = await httpSutCaller(sut({ retries: 1 }))(CONTEXT);
    expect(server.requests).toHaveLength(2);
    expect(outcome.error).toEqual({
      cause: 'http',
      message: `${server.openaiBaseUrl}/chat/completions answered 500 (2 attempts)`,
    });
    expect(outcome.usage).toBeUndefined();
  });

  it('times out each attempt of a server that does not answer in time', async () => {
    server.respond(() => ({ content: 'too late', delayMs: 3_000 }));
    const outcome = await httpSutCaller(sut({ timeout: 0.3, retries: 1 }))(CONTEXT);
    expect(outcome.error).toEqual({ cause: 'timeout', message: 'no answer within 0.3 s (2 attempts)' });
    expect(server.requests).toHaveLength(2);
  });

  it('makes garbage with a 200 unparseable, not retried, and an answer without usage has no usage', async () => {
    server.respond(() => ({ raw: '<html>bad gateway</html>' }));
    const garbage = await httpSutCaller(sut())(CONTEXT);
    expect(garbage.error?.cause).toBe('unparseable');
    expect(garbage.error?.message).toMatch(/answered with a body that is not JSON/);
    expect(server.requests).toHaveLength(1);

    server.respond(() => ({ raw: JSON.stringify({ choices: [{ message: { content: 'deck 2' } }] }) }));
    const bare = await httpSutCaller(sut())(CONTEXT);
    expect(bare.response).toBe('deck 2');
    expect(bare.usage).toBeUndefined();
  });
});
