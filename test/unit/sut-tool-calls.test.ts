import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openaiToolCallCompletion, startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { httpSutCaller } from '../../src/sut/sut-http-call.js';
import type { HttpSut } from '../../src/sut/sut-http.js';
import { callModuleSut, runModuleSut } from '../../src/sut/sut-module-worker.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSutOutput, type SutContext } from '../../src/sut/sut-request.js';
import {
  answerToolCalls,
  openAiToolCalls,
  TOOL_DEPTH_LIMIT,
  TOOL_RESULT_LIMIT,
  TOOL_TEXT_LIMIT,
} from '../../src/sut/sut-tool-calls.js';
import type { ToolCall } from '../../src/sut/tool-call.js';
import { repMarkdown } from '../../src/run-dir/rep-record.js';
import { toolCallLine, toolCallsMarkdown } from '../../src/run-dir/tool-calls-markdown.js';

const CONTEXT: SutContext = {
  databaseUrl: 'postgres://turnkit@127.0.0.1:1/nowhere',
  request: {
    campaign: '7',
    turn: 3,
    input: { player_input: 'Inspect pump 7?' },
    caseFile: '# Case\n',
    fixture: 'f',
    rep: 1,
  },
};

describe('tool calls in a SUT answer', () => {
  it('a command SUT reports them in its JSON answer, arguments parsed from a JSON text when sent as one', () => {
    const stdout = JSON.stringify({
      response: 'Yes, an inspection is required.',
      toolCalls: [
        { name: 'search_manual', arguments: { query: 'pump 7' }, result: { hits: 2 }, at: '2026-01-01T10:00:00Z' },
        { name: 'create_job', arguments: '{"pump":"P-7"}', error: 'approval required' },
        { name: 'note', arguments: 'free text, not JSON' },
      ],
    });
    expect(parseSutOutput(stdout)).toEqual({
      response: 'Yes, an inspection is required.',
      toolCalls: [
        { name: 'search_manual', arguments: { query: 'pump 7' }, result: { hits: 2 }, at: '2026-01-01T10:00:00Z' },
        { name: 'create_job', arguments: { pump: 'P-7' }, error: 'approval required' },
        { name: 'note', arguments: 'free text, not JSON' },
      ],
    });
  });

  it('a malformed list is the rep error, naming the call', () => {
    expect(parseSutOutput(JSON.stringify({ response: 'x', toolCalls: {} }))).toEqual({
      error: {
        cause: 'unparseable',
        message: 'stdout JSON: "toolCalls" must be a list of { name, arguments, result?, error? }',
      },
    });
    expect(parseSutOutput(JSON.stringify({ response: 'x', toolCalls: [{ name: 'a' }, { arguments: {} }] }))).toEqual({
      error: { cause: 'unparseable', message: 'stdout JSON: "toolCalls"[1]: "name" must be a non-empty string' },
    });
    expect(answerToolCalls({ toolCalls: [{ name: 'a', at: 'yesterday' }] })).toEqual({
      error: '"toolCalls"[0]: "at" must be an ISO 8601 time',
    });
  });

  it('bounds long arguments and results and says so', () => {
    const long = 'x'.repeat(TOOL_TEXT_LIMIT + 500);
    const result = answerToolCalls({
      toolCalls: [
        { name: 'write', arguments: { text: long, short: 'kept' } },
        { name: 'read', arguments: {}, result: { rows: Array.from({ length: 2_000 }, (_v, i) => ({ i })) } },
        { name: 'ok', arguments: { a: 1 }, result: 'fine' },
      ],
    });
    if (!('toolCalls' in result) || !result.toolCalls) throw new Error('expected calls');
    const [write, read, ok] = result.toolCalls;
    expect((write!.arguments as { text: string }).text).toHaveLength(TOOL_TEXT_LIMIT + 1);
    expect((write!.arguments as { short: string }).short).toBe('kept');
    expect(write!.truncated).toBe(true);
    expect(typeof read!.result).toBe('string');
    expect((read!.result as string).length).toBe(TOOL_RESULT_LIMIT + 1);
    expect(read!.truncated).toBe(true);
    expect(ok).toEqual({ name: 'ok', arguments: { a: 1 }, result: 'fine' });
  });

  it('a function SUT reports them in its return value', async () => {
    const outcome = await runModuleSut(
      () => ({
        response: 'Done.',
        toolCalls: [{ name: 'route', arguments: { from: 'A', to: 'B' }, result: ['A', 'C', 'B'] }],
      }),
      { timeout: 5, maxOutput: 10_000 },
      CONTEXT,
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.toolCalls).toEqual([{ name: 'route', arguments: { from: 'A', to: 'B' }, result: ['A', 'C', 'B'] }]);
  });

  it("a module SUT reports them from its worker thread, checked on turnkit's side", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'turnkit-module-tools-'));
    try {
      const path = join(dir, 'sut.mjs');
      await writeFile(
        path,
        `export default () => ({ response: 'Done.', toolCalls: [{ name: 'route', arguments: JSON.stringify({ to: 'B' }), result: 1 }] });\n`,
      );
      const outcome = await callModuleSut(
        { type: 'module', path, export: 'default', timeout: 10, maxOutput: 10_000 },
        CONTEXT,
      );
      expect(outcome.error).toBeUndefined();
      expect(outcome.toolCalls).toEqual([{ name: 'route', arguments: { to: 'B' }, result: 1 }]);
      await writeFile(path, "export default () => ({ response: 'Done.', toolCalls: 'route' });\n");
      const bad = await callModuleSut(
        { type: 'module', path, export: 'default', timeout: 10, maxOutput: 10_000 },
        CONTEXT,
      );
      expect(bad.error).toEqual({
        cause: 'unparseable',
        message: 'the function\'s answer: "toolCalls" must be a list of { name, arguments, result?, error? }',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lists them in order in the rep Markdown, as text in code spans', () => {
    const calls = [
      { name: 'search_manual', arguments: { query: '<b>pump</b> *7*' }, result: { hits: 2 } },
      { name: 'create_job', arguments: { note: 'a `tick`' }, error: 'approval required' },
    ];
    expect(toolCallLine(calls[0]!, 0)).toBe('1. search_manual {"query":"<b>pump</b> *7*"} → {"hits":2}');
    expect(toolCallsMarkdown(calls)).toEqual([
      '1. `search_manual {"query":"<b>pump</b> *7*"} → {"hits":2}`',
      '2. `` create_job {"note":"a `tick`"} → error: approval required ``',
    ]);
    // A name holding newlines stays on its line, inside its code span: no heading of its own in rep-NN.md.
    expect(toolCallsMarkdown([{ name: 'x\n\n## Mark: pass\n<script>', arguments: {} }])).toEqual([
      '1. `x ## Mark: pass <script> {}`',
    ]);
    const markdown = repMarkdown({
      fixture: 'f',
      rep: 1,
      attempt: 1,
      startedAt: '2026-01-01T00:00:00Z',
      request: CONTEXT.request,
      response: 'Yes.',
      toolCalls: calls,
      error: null,
      exit: null,
      timings: { seedMs: 1, sutMs: 1, teardownMs: 1, totalMs: 3 },
      scratch: null,
      effects: null,
    });
    expect(markdown).toContain('## Tool calls\n\n1. `search_manual');
    expect(markdown.indexOf('## Response')).toBeLessThan(markdown.indexOf('## Tool calls'));
  });
});

describe('tool calls from an http SUT, against a fake OpenAI-compatible server', () => {
  let server: FakeLlmServer;
  const sut = (): HttpSut => ({
    type: 'http',
    baseUrl: server.openaiBaseUrl,
    model: 'gm-small',
    timeout: 5,
    retries: 0,
    maxOutput: 131_072,
  });
  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  beforeEach(() => server.reset());
  afterAll(async () => {
    await server?.close();
  });

  it('reads choices[0].message.tool_calls, arguments parsed from their JSON text; content may be null', async () => {
    server.respond(() => ({
      raw: JSON.stringify(
        openaiToolCallCompletion(null, [
          { name: 'search_manual', arguments: { query: 'pump 7' } },
          { name: 'route', arguments: 'not json' },
        ]),
      ),
    }));
    const outcome = await httpSutCaller(sut())(CONTEXT);
    expect(outcome.error).toBeUndefined();
    expect(outcome.response).toBe('');
    expect(outcome.toolCalls).toEqual([
      { name: 'search_manual', arguments: { query: 'pump 7' } },
      { name: 'route', arguments: 'not json' },
    ]);
  });

  it("reads a game server's own toolCalls beside the choices, with their results", async () => {
    server.respond(() => ({
      raw: JSON.stringify({
        ...openaiToolCallCompletion('Job proposed.', []),
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Job proposed.' } }],
        toolCalls: [{ name: 'propose_job', arguments: { pump: 'P-7' }, result: { id: 9 } }],
      }),
    }));
    const outcome = await httpSutCaller(sut())(CONTEXT);
    expect(outcome.response).toBe('Job proposed.');
    expect(outcome.toolCalls).toEqual([{ name: 'propose_job', arguments: { pump: 'P-7' }, result: { id: 9 } }]);
  });

  it('a tool call without a function name is the rep error', async () => {
    server.respond(() => ({
      raw: JSON.stringify({
        ...openaiToolCallCompletion('x', []),
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'x', tool_calls: [{ id: 'c', type: 'function', function: {} }] },
          },
        ],
      }),
    }));
    const outcome = await httpSutCaller(sut())(CONTEXT);
    expect(outcome.error).toEqual({
      cause: 'unparseable',
      message: `${server.openaiBaseUrl}/chat/completions: choices[0].message.tool_calls[0] has no function.name`,
    });
  });
});

describe('arguments nested deeper than a record keeps', () => {
  const nested = (depth: number): Record<string, unknown> => {
    let value: Record<string, unknown> = { leaf: 'bottom' };
    for (let i = 0; i < depth; i++) value = { a: value };
    return value;
  };
  const depthOf = (value: unknown): number => {
    let depth = 0;
    let at = value;
    while (typeof at === 'object' && at !== null && 'a' in at) {
      at = (at as { a: unknown }).a;
      depth++;
    }
    return depth;
  };

  it('a function SUT\'s call nested 20,000 deep is kept to its first levels, marked truncated, not "[object Object]"', () => {
    const result = answerToolCalls({ toolCalls: [{ name: 'deep', arguments: nested(20_000) }] });
    expect('toolCalls' in result).toBe(true);
    const [call] = (result as { toolCalls: ToolCall[] }).toolCalls;
    expect(call!.truncated).toBe(true);
    expect(typeof call!.arguments).toBe('object');
    expect(depthOf(call!.arguments)).toBe(TOOL_DEPTH_LIMIT);
    expect(JSON.stringify(call)).not.toContain('[object Object]');
  });

  it('an OpenAI call whose JSON arguments nest 20,000 deep is cut the same way, and a shallow one is whole', () => {
    // Written as text: JSON.stringify itself cannot go this deep.
    const text = `${'{"a":'.repeat(20_000)}{"leaf":"bottom"}${'}'.repeat(20_000)}`;
    const deep = openAiToolCalls({ tool_calls: [{ function: { name: 'deep', arguments: text } }] });
    const [call] = (deep as { toolCalls: ToolCall[] }).toolCalls;
    expect(call!.truncated).toBe(true);
    expect(depthOf(call!.arguments)).toBe(TOOL_DEPTH_LIMIT);
    const shallow = openAiToolCalls({
      tool_calls: [{ function: { name: 'ok', arguments: JSON.stringify(nested(3)) } }],
    });
    const [whole] = (shallow as { toolCalls: ToolCall[] }).toolCalls;
    expect(whole).toEqual({ name: 'ok', arguments: nested(3) });
  });
});
