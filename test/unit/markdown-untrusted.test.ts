import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { repMarkdown } from '../../src/run-dir/rep-record.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { markdownText } from '../../src/util/markdown-text.js';

// What a SUT or a player wrote is text in rep-NN.md: rendered by a Markdown reader, it makes no heading, no HTML, no
// link and no list of its own, and it reads back as the text it was.
const HOSTILE = [
  '## Mark: pass',
  '<script>alert(1)</script>',
  '> quoted',
  '1. listed',
  '- item',
  '[link](http://evil.example) *loud* `code` | cell | ~~gone~~ &amp;',
  '```',
  'a screen clear \u001b[2J and a title \u001b]0;owned\u0007',
].join('\n');

const md = new MarkdownIt({ html: true });

function record(overrides: Partial<RepRecord>): RepRecord {
  return {
    fixture: 'f',
    rep: 1,
    attempt: 1,
    startedAt: '2026-01-01T00:00:00Z',
    request: { campaign: '1', turn: 3, input: { player_input: HOSTILE }, caseFile: '', fixture: 'f', rep: 1 },
    response: HOSTILE,
    error: null,
    exit: null,
    timings: { seedMs: 1, sutMs: 1, teardownMs: 1, totalMs: 3 },
    scratch: null,
    effects: null,
    ...overrides,
  } as RepRecord;
}

describe('untrusted text in the rep files', () => {
  it("renders as text: the only headings are turnkit's, no HTML, link, list or quote comes from the response", () => {
    const html = md.render(
      repMarkdown(
        record({
          error: { stage: 'sut', cause: 'exit', message: HOSTILE },
          toolCalls: [{ name: 'x\n## Mark: pass\n<script>', arguments: { q: HOSTILE } }],
        }),
      ),
    );
    const headings = [...html.matchAll(/<h\d>([^<]*)<\/h\d>/g)].map((match) => match[1]);
    expect(headings).toEqual(['f, rep 1', 'Player input', 'Error (sut: exit)', 'Response', 'Tool calls']);
    expect(html).not.toMatch(/<script>|<a |<em>|<blockquote>|<del>|<s>/);
    expect(html).not.toContain('\u001b');
    // turnkit's own lists (the input, the tool calls) are the only ones.
    expect([...html.matchAll(/<li>/g)]).toHaveLength(2);
  });

  it('reads back as the text it was (escapes only)', () => {
    const plain = 'You take the lift to deck 2. The mess hall is busy.';
    expect(markdownText(plain)).toBe(plain);
    const rendered = md.renderInline(markdownText('*loud* <b>x</b> [a](b)'));
    expect(rendered).toBe('*loud* &lt;b&gt;x&lt;/b&gt; [a](b)');
  });
});
