import { describe, expect, it } from 'vitest';
import { withoutPassword, withoutSecrets } from '../../src/util/redact-password.js';
import { inheritedEnv } from '../../src/sut/secret-names.js';
import { sutSecrets } from '../../src/sut/sut-secrets.js';
import { recordedTail, type SutRequest } from '../../src/sut/sut-request.js';

describe('the database password never reaches a rep record', () => {
  it('removes the percent-encoded and the decoded password from every string, nested too', () => {
    const url = 'postgres://postgres:s3cr%40t%2Fpw0rd@127.0.0.1:5432/game';
    const record = {
      response: `DATABASE_URL=${url}`,
      stdoutTail: 'password is s3cr@t/pw0rd',
      nested: { list: ['s3cr%40t%2Fpw0rd', 'fine'] },
      rep: 3,
    };
    expect(withoutPassword(record, url)).toEqual({
      response: 'DATABASE_URL=postgres://postgres:***@127.0.0.1:5432/game',
      stdoutTail: 'password is ***',
      nested: { list: ['***', 'fine'] },
      rep: 3,
    });
    // The input is left as it was.
    expect(record.stdoutTail).toBe('password is s3cr@t/pw0rd');
  });

  it('removes a short password and one with quotes or backslashes, and leaves records of URLs without one alone', () => {
    expect(withoutPassword({ a: 'x pw y' }, 'postgres://u:pw@h/d')).toEqual({ a: 'x *** y' });
    expect(withoutPassword({ a: 'say "q\\"uote"' }, `postgres://u:${encodeURIComponent('"q\\"uote"')}@h/d`)).toEqual({
      a: 'say ***',
    });
    const plain = { a: 'postgres://postgres@127.0.0.1/test' };
    expect(withoutPassword(plain, 'postgres://postgres@127.0.0.1/test')).toBe(plain);
  });
});

describe('the secrets a SUT can see never reach a rep record', () => {
  it('takes secret-named variables of the environment, of sut.env after expansion, and the http API key', () => {
    const env = {
      OPENAI_API_KEY: 'sk-live-123456',
      GITHUB_TOKEN: 'ghp_abcdefgh',
      DB_PASSWORD: 'hunter22',
      DB_PASS: 'pass-word-1',
      SMTP_PWD: 'smtp-secret',
      REDIS_URL: 'redis://:r3d1s-pw@cache:6379/0',
      PWD: '/home/ann/game',
      OLDPWD: '/home/ann',
      SSH_AUTH_SOCK: '/tmp/ssh-XXXX/agent.1',
      HOME: '/home/ann',
      SHORT_KEY: 'abc',
      PLAIN: 'sk-not-a-secret-name',
    };
    expect(sutSecrets({ type: 'command', command: ['sut'], timeout: 130, maxOutput: 1000 }, env).sort()).toEqual([
      'ghp_abcdefgh',
      'hunter22',
      'pass-word-1',
      'r3d1s-pw',
      'sk-live-123456',
      'smtp-secret',
    ]);
    expect(
      sutSecrets(
        {
          type: 'http',
          baseUrl: 'http://127.0.0.1:1/v1',
          model: 'm',
          timeout: 5,
          retries: 0,
          maxOutput: 131_072,
          apiKeyEnv: 'PLAIN',
        },
        env,
      ),
    ).toContain('sk-not-a-secret-name');
    process.env.TURNKIT_UNIT_VALUE = 'expanded-secret-value';
    try {
      expect(
        sutSecrets(
          {
            type: 'command',
            command: ['sut'],
            timeout: 130,
            maxOutput: 1000,
            env: { SERVICE_TOKEN: '${TURNKIT_UNIT_VALUE}', MODE: 'fast-and-loose' },
          },
          // ${NAME} expands from the environment turnkit was given (the command line's is the process's).
          { TURNKIT_UNIT_VALUE: process.env.TURNKIT_UNIT_VALUE },
        ),
      ).toEqual(['expanded-secret-value']);
    } finally {
      delete process.env.TURNKIT_UNIT_VALUE;
    }
  });

  it('takes tokens, DSNs, authorization headers, JWTs, webhooks, cookies and credentials in any URL', () => {
    const env = {
      GH_PAT: 'github_pat_11AAAA',
      SENTRY_DSN: 'https://f00dsentrykey@o1.ingest.sentry.io/42',
      AUTHORIZATION: 'Bearer eyJhbGciOi',
      CI_JOB_JWT: 'eyJ0eXAiOiJKV1Qi',
      SLACK_WEBHOOK: 'https://hooks.slack.com/services/T000/B000/XXXXsecret',
      SESSION_COOKIE: 'sid=cookie-value-1',
      SERVICE_URL: 'https://svc-user:svc-pass-1@api.example.com/v1?access_token=tok-in-query-1&page=200000',
      PATH: '/usr/bin:/bin',
      GIT_AUTHOR_NAME: 'Ann Example',
      XDG_SESSION_TYPE: 'wayland',
    };
    const found = sutSecrets({ type: 'command', command: ['sut'], timeout: 130, maxOutput: 1000 }, env);
    expect(found).toEqual(
      expect.arrayContaining([
        'github_pat_11AAAA',
        env.SENTRY_DSN,
        'f00dsentrykey',
        'Bearer eyJhbGciOi',
        'eyJ0eXAiOiJKV1Qi',
        env.SLACK_WEBHOOK,
        'sid=cookie-value-1',
        'svc-user',
        'svc-pass-1',
        'tok-in-query-1',
      ]),
    );
    for (const plain of ['/usr/bin:/bin', 'Ann Example', 'wayland', '200000']) expect(found).not.toContain(plain);
  });

  it("keeps a URL's short password but not a short credential-named query value (masking '1' garbles responses)", () => {
    const found = sutSecrets(
      { type: 'command', command: ['sut'], timeout: 130, maxOutput: 1000 },
      { CACHE_URL: 'redis://:pw@cache:6379/0', X_URL: 'https://h/?password=1' },
    );
    expect(found.sort()).toEqual(['pw']);
  });

  it('gives a command SUT none of the secret-named variables, unless sut.env names them', () => {
    const env = { TURNKIT_SCRUB_KEY: 'k'.repeat(64), OPENAI_API_KEY: 'sk-judge-1', HOME: '/home/ann', LANG: 'C' };
    expect(inheritedEnv(env)).toEqual({ HOME: '/home/ann', LANG: 'C' });
    // Nor libpq's: a `psql` with no URL would reach the live database they name.
    expect(inheritedEnv({ PGHOST: 'live', PGDATABASE: 'game', PGUSER: 'ann', PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });

  it('removes a secret as it reads inside a JSON string or a URL too', () => {
    const secret = 'p@ss "word"/x';
    const record = {
      plain: `pw ${secret}`,
      json: JSON.stringify({ pw: secret }),
      url: `https://h/?k=${encodeURIComponent(secret)}`,
    };
    expect(withoutSecrets(record, [secret])).toEqual({
      plain: 'pw ***',
      json: '{"pw":"***"}',
      url: 'https://h/?k=***',
    });
  });

  it('cuts the recorded end of the output after removing secrets, so none is left in part at the cut', () => {
    const key = 'sk-live-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    // The key ends 20 characters into the last 2,000: a cut first would keep its last 20 characters.
    const output = `auth with ${key}${'x'.repeat(2_000 - 20)}`;
    const recorded = recordedTail(output, {
      databaseUrl: 'postgres://u@h/d',
      request: {} as SutRequest,
      secrets: [key],
    });
    expect(recorded).not.toContain(key.slice(-20));
    expect(recorded.endsWith('x'.repeat(1_980))).toBe(true);
  });

  it('removes every secret, the longer first, and returns the record itself when there is none', () => {
    expect(
      withoutSecrets({ a: 'key sk-123456 and sk-123456789', n: [1, 'sk-123456'] }, ['sk-123456', 'sk-123456789']),
    ).toEqual({ a: 'key *** and ***', n: [1, '***'] });
    const plain = { a: 'nothing here' };
    expect(withoutSecrets(plain, [])).toBe(plain);
    expect(withoutSecrets(plain, [''])).toBe(plain);
  });
});
