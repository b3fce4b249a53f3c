import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert } from 'xmlbuilder2';
import { runInProcess } from '../helpers/cli-in-process.js';
import { HOSTILE_NOTE, makeCiRun, xmllintSchema, xmllintXpath } from '../helpers/ci-run.js';
import type { Report } from '../../src/report/build-report.js';

const SCHEMA = fileURLToPath(new URL('../helpers/junit.xsd', import.meta.url));

/** An element of the parsed XML as xmlbuilder2 gives it: attributes under "@name", children by name. */
type Node = Record<string, unknown>;
const list = (value: unknown): Node[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]) as Node[];

describe('turnkit report --junit', () => {
  let folder: string;
  const cli = (args: string[]) => runInProcess(args, { cwd: folder });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-junit-'));
    await makeCiRun(join(folder, 'run'), 0.9, {
      // missed: 1 of 4 qualified, two failing reps with notes (one hostile), one without
      base: [['fail', HOSTILE_NOTE], ['fail', 'no deck named'], ['pass'], ['fail'], ['error', 'sut: exit'], ['na']],
      // met: 6 of 6
      'base-fixed': [['pass'], ['pass'], ['pass'], ['pass'], ['pass'], ['pass']],
      // pending: two reps not marked
      far: [['pass'], ['fail', 'wrong deck'], ['pass'], ['pass'], [''], ['']],
    });
  });
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('writes XML valid against the JUnit schema whose counts are those of report --json', async () => {
    const result = await cli(['report', 'run', '--junit', 'out/report.xml', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout).report as Report;
    const xml = await readFile(join(folder, 'out/report.xml'), 'utf8');
    await expect(xmllintSchema(join(folder, 'out/report.xml'), SCHEMA)).resolves.toContain('validates');

    const parsed = convert(xml, { format: 'object' }) as unknown as { testsuites: Node };
    const root = parsed.testsuites;
    const verdicts = (verdict: string) => report.fixtures.filter((fixture) => fixture.verdict === verdict).length;
    expect(root['@tests']).toBe(String(report.fixtures.length));
    expect(root['@failures']).toBe(String(verdicts('missed')));
    expect(root['@skipped']).toBe(String(verdicts('pending')));
    expect(root['@errors']).toBe('0');
    const suites = list(root.testsuite);
    expect(suites.map((suite) => suite['@name'])).toEqual(report.tags.map((tag) => `places (${tag.tag})`));
    for (const [i, suite] of suites.entries()) {
      const tag = report.tags[i]!;
      expect([suite['@tests'], suite['@failures'], suite['@skipped']]).toEqual(
        [tag.fixtures, tag.missed, tag.pending].map(String),
      );
    }
    const cases = suites.flatMap((suite) => list(suite.testcase));
    expect(cases.map((entry) => entry['@name'])).toEqual(report.fixtures.map((fixture) => fixture.fixture));
    expect(cases.map((entry) => entry['@file'])).toEqual(report.fixtures.map((f) => `fixtures/${f.fixture}.json`));
    const byName = new Map(cases.map((entry) => [entry['@name'] as string, entry]));

    // The missed fixture: counts, rate, interval in the message; each failing rep's note (as written) in the body.
    const base = report.fixtures.find((fixture) => fixture.fixture === 'base')!;
    expect([base.pass, base.fail, base.verdict]).toEqual([1, 3, 'missed']);
    const failure = byName.get('base')!.failure as Node;
    expect(failure['@type']).toBe('missed');
    expect(failure['@message']).toBe(
      `missed: 1 pass, 3 fail, 1 na, 1 error, 0 blank; rate 0.25 (1/4, errors excluded), 95% interval [${base.wilson!.low.toFixed(2)}, ${base.wilson!.high.toFixed(2)}], 4 passes needed for target 0.9`,
    );
    // Read by libxml2, the body is each failing rep's note exactly as written (markup, references, a carriage return).
    const file = join(folder, 'out/report.xml');
    expect(await xmllintXpath(file, '//testcase[@name="base"]/failure')).toBe(
      `rep 1: ${HOSTILE_NOTE}\nrep 2: no deck named\nrep 4: (no note)`,
    );
    expect(await xmllintXpath(file, '//testcase[@name="base"]/failure/@message')).toBe(failure['@message']);
    expect(xml).not.toContain('<b>');

    expect(byName.get('base-fixed')!.failure).toBeUndefined();
    expect(byName.get('base-fixed')!.skipped).toBeUndefined();
    expect(byName.get('base-fixed')!['system-out']).toMatch(/^met \(uncertain\): 6 pass, 0 fail/);
    expect((byName.get('far')!.skipped as Node)['@message']).toMatch(/^pending: 2 rep\(s\) not marked; 3 pass, 1 fail/);
    expect(byName.get('far')!.failure).toBeUndefined();
  });

  it('--junit with the text report prints the report and writes the same file; --check still decides the exit', async () => {
    const result = await cli(['report', 'run', '--junit', 'again.xml', '--check']);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')[0]).toBe('places: QUESTION-TEXT: where is the mess hall?');
    expect(result.stderr.split('\n')[0]).toMatch(/^--check: 2 of 3 fixture\(s\) did not meet the target/);
    expect(await readFile(join(folder, 'again.xml'), 'utf8')).toBe(
      await readFile(join(folder, 'out/report.xml'), 'utf8'),
    );
  });

  it('--junit onto a folder is refused with a one-line error', async () => {
    await mkdir(join(folder, 'a-folder'));
    const result = await cli(['report', 'run', '--junit', 'a-folder']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('a-folder: cannot write the JUnit report: it is a folder\n');
  });
});
