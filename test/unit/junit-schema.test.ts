import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xmllintSchema, xmllintXpath } from '../helpers/ci-run.js';

const SCHEMA = fileURLToPath(new URL('../helpers/junit.xsd', import.meta.url));

// The JUnit checks read XML with libxml2 compiled to WebAssembly (xmllint-wasm, from npm): no xmllint on the PATH.
describe('the JUnit schema check', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-junit-schema-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('accepts a JUnit file the schema allows and refuses one it does not, naming the element', async () => {
    const good = join(dir, 'good.xml');
    await writeFile(
      good,
      '<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase name="c" classname="k"/></testsuite></testsuites>\n',
    );
    await expect(xmllintSchema(good, SCHEMA)).resolves.toBe('good.xml validates');
    const bad = join(dir, 'bad.xml');
    await writeFile(
      bad,
      '<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><bogus/></testsuite></testsuites>\n',
    );
    await expect(xmllintSchema(bad, SCHEMA)).rejects.toThrow(/bogus/);
  });

  it("reads an XPath's string value as libxml2 decodes it", async () => {
    const file = join(dir, 'refs.xml');
    await writeFile(file, '<a><b m="x &amp; y">1 &lt;b&gt;&#13;\n2</b></a>\n');
    expect(await xmllintXpath(file, '//b')).toBe('1 <b>\r\n2');
    expect(await xmllintXpath(file, '//b/@m')).toBe('x & y');
  });
});
