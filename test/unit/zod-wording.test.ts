import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseWithSchema } from '../../src/util/json/json-source.js';
import { screenRowSchema } from '../../src/run-dir/screens-schema.js';

const SRC = resolve(import.meta.dirname, '../../src');

// zod's messages in turnkit's words (util/zod-messages.ts) are given per parse, not set for the process by whichever
// module happened to load first: a schema read alone says what to write, and a project's own schemas keep zod's words.

const problemsOf = (schema: z.ZodType, value: unknown): unknown => {
  try {
    return parseWithSchema(schema, value, 'f.json');
  } catch (error) {
    return error;
  }
};

describe("zod's messages in turnkit's words", () => {
  it('a schema read alone gives them: one of the test, with no schema module of turnkit loaded', () => {
    const schema = z.object({ count: z.number().min(0), name: z.string().min(1), kind: z.enum(['a', 'b']) });
    expect(problemsOf(schema, { count: -1, name: '', kind: 'c' })).toMatchObject({
      code: 'BAD_INPUT',
      message: 'f.json: $.count: must be at least 0',
      problems: [
        'f.json: $.count: must be at least 0',
        'f.json: $.name: must not be empty',
        'f.json: $.kind: use one of "a", "b"',
      ],
    });
  });

  it('a schema module of turnkit that imports no other (screens-schema.ts) gives them', () => {
    const row = { fixture: 'a', rep: 0, mark: 'pass', screens: [{ screen: 's', mark: 'maybe', reason: '' }] };
    expect(problemsOf(screenRowSchema, row)).toMatchObject({
      problems: [
        'f.json: $.rep: must be at least 1',
        'f.json: $.screens[0].mark: use one of "pass", "fail", "unscored", "error"',
      ],
    });
  });

  it("zod's own words stay with a project's schemas once turnkit's schema modules are loaded", async () => {
    await import('../../src/config/schema.js');
    await import('../../src/question/question-format.js');
    await import('../../src/fixture/format.js');
    expect(z.number().min(0).safeParse(-1).error?.issues[0]?.message).toBe('Too small: expected number to be >=0');
  });

  it('src/ checks a schema one way: no .safeParse( outside util/zod-messages.ts', () => {
    const sources = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file));
    const calling = sources.filter(
      (file) => file !== 'util/zod-messages.ts' && readFileSync(resolve(SRC, file), 'utf8').includes('.safeParse('),
    );
    expect(sources.length).toBeGreaterThan(100);
    expect(calling).toEqual([]);
  });
});
