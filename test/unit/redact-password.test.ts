import { describe, expect, it } from 'vitest';
import { withoutPassword } from '../../src/pipeline/redact-password.js';

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
    expect(withoutPassword({ a: 'say "q\\"uote"' }, `postgres://u:${encodeURIComponent('"q\\"uote"')}@h/d`)).toEqual({ a: 'say ***' });
    const plain = { a: 'postgres://postgres@127.0.0.1/test' };
    expect(withoutPassword(plain, 'postgres://postgres@127.0.0.1/test')).toBe(plain);
  });
});
