import { afterEach, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config/load.js';
import { loadFixture } from '../../src/fixture/load-fixture.js';
import { caseFileSource } from '../../src/question/case-file-source.js';
import { loadQuestion } from '../../src/question/load-question.js';
import { TurnkitError } from '../../src/errors.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SAMPLE_GAME = `game: { root: { table: 'campaigns', key: 'id' }, turns: { table: 'turns', order: 'turn_number', input: ['player_input'] }, shared: ['users'] }`;

describe('case files from a function of turnkit.config.ts (caseFile: config:NAME)', () => {
  let dir: string;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A project with the sample fixture, a config of the given caseFiles source, and a question naming one. */
  async function project(
    caseFiles: string,
    caseFile: string,
  ): Promise<{ question: Awaited<ReturnType<typeof loadQuestion>>; config: Awaited<ReturnType<typeof loadConfig>> }> {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-casefn-'));
    await mkdir(join(dir, 'fixtures'));
    await copyFile(join(REPO, 'fixtures/meridian-turn-23.json'), join(dir, 'fixtures/meridian-turn-23.json'));
    await writeFile(
      join(dir, 'turnkit.config.ts'),
      `export default { ${SAMPLE_GAME}, caseFiles: { ${caseFiles} } };\n`,
    );
    await writeFile(join(dir, 'rubric.md'), 'r\n');
    await writeFile(
      join(dir, 'q.yaml'),
      `id: q\nquestion: q?\nrubric: { path: rubric.md, version: 1 }\ntarget: 0.9\nreps: 1\nfixtures: [fixtures/meridian-turn-23.json]\nsut: { type: command, command: [node] }\ncaseFile: ${caseFile}\n`,
    );
    return { question: await loadQuestion(join(dir, 'q.yaml')), config: await loadConfig({ cwd: dir }) };
  }

  it('renders with the function, which may use the placeholders through render(), and records its source', async () => {
    const { question, config } = await project(
      `places: ({ fixture, turn, input, render }) => '# ' + fixture.name + ' at turn ' + turn + '\\n\\n' + String(input.player_input).toUpperCase() + '\\n\\n' + render('{{recent_turns:1}}')`,
      'config:places',
    );
    const source = await caseFileSource(question, config);
    expect(source.path).toBe('turnkit.config.ts#places');
    expect(source.text).toContain('fixture.name');
    const fixture = (await loadFixture(join(dir, 'fixtures/meridian-turn-23.json'))).fixture;
    const text = await source.render(fixture);
    const [heading, , input, , recent] = text.split('\n');
    expect(heading).toBe('# meridian-turn-23 at turn 23');
    expect(input).toBe(String(fixture.input.values.player_input).toUpperCase());
    expect(recent).toMatch(/^\*\*Turn 22\.\*\* Player: /);
  });

  it('names the question place and the functions there are when the name is unknown', async () => {
    const { question, config } = await project(`places: () => 'x'`, 'config:plaecs');
    await expect(caseFileSource(question, config)).rejects.toThrow(
      /q\.yaml:8:11: \$\.caseFile: no case-file function "plaecs" in .*turnkit\.config\.ts \(it has places\)$/,
    );
  });

  it('turns a throwing function, an empty answer and a bad placeholder into one-line errors naming the fixture', async () => {
    const fixture = (await loadFixture(join(REPO, 'fixtures/meridian-turn-23.json'))).fixture;
    const throwing = await project(`boom: () => { throw new Error('no deck table') }`, 'config:boom');
    const error = await (await caseFileSource(throwing.question, throwing.config))
      .render(fixture)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnkitError);
    expect((error as Error).message).toMatch(
      /: \$\.caseFile: the case-file function "boom" failed for meridian-turn-23: no deck table$/,
    );
    const empty = await project(`blank: () => '  '`, 'config:blank');
    await expect((await caseFileSource(empty.question, empty.config)).render(fixture)).rejects.toThrow(
      /returned an empty string for meridian-turn-23, not Markdown$/,
    );
    const placeholder = await project(`typo: ({ render }) => render('{{inptu}}')`, 'config:typo');
    await expect((await caseFileSource(placeholder.question, placeholder.config)).render(fixture)).rejects.toThrow(
      /\(its template\):1:1: \{\{inptu\}\}: unknown placeholder/,
    );
  });

  it('still reads a template file for any other caseFile, and says when it is missing', async () => {
    const { question, config } = await project(`places: () => 'x'`, 'nope.md');
    await expect(caseFileSource(question, config)).rejects.toThrow(/\$\.caseFile: .*nope\.md: no such file/);
    await writeFile(join(dir, 'case.md'), '# {{fixture.name}}\n');
    const other = await project(`places: () => 'x'`, 'case.md');
    await writeFile(join(dir, 'case.md'), '# {{fixture.name}}\n');
    const source = await caseFileSource(await loadQuestion(join(dir, 'q.yaml')), other.config);
    expect(source.path).toBe('case.md');
    expect(await source.render((await loadFixture(join(dir, 'fixtures/meridian-turn-23.json'))).fixture)).toBe(
      '# meridian-turn-23\n',
    );
  });
});
