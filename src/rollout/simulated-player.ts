import { resolve } from 'node:path';
import type OpenAIClient from 'openai';
import { loadOpenAi, modelFailure, openAiClient } from '../model/model-client.js';
import { commandWords, runBounded } from '../util/process/bounded-process.js';
import { splitBaseUrl } from '../util/url-secrets.js';
import type { PlayersConfig } from '../question/rollout-format.js';
import type { PlayerMove, PlayerSource } from './rollout-inputs.js';
import { transcriptText } from './rollout-inputs.js';

type SimulatedPlayers = Extract<PlayersConfig, { type: 'simulated' }>;
type CommandPlayers = Extract<PlayersConfig, { type: 'command' }>;

/** The most characters kept of a player's input: a model that rambles does not flood the SUT. */
const MAX_INPUT = 4_000;

/**
 * A player played by a model behind an OpenAI-compatible endpoint, through the model client the http SUT and the
 * judges use: the persona as the system prompt, the transcript so far as the user message, and its answer as the next
 * input (the game's first input column). The API key comes from the variable the question names and goes nowhere but
 * the request header.
 */
export function simulatedPlayer(
  players: SimulatedPlayers,
  columns: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): PlayerSource {
  // User info and query stay out of every message, as the http SUT's do.
  const url = `${splitBaseUrl(players.baseUrl).endpoint.replace(/\/+$/, '')}/chat/completions`;
  let client: OpenAIClient | undefined;
  return {
    async next(turn, _index, transcript) {
      const started = performance.now();
      const OpenAI = await loadOpenAi();
      // One attempt per input: a player that fails is the turn's error, said at once rather than retried behind the SUT.
      client ??= await openAiClient({
        baseUrl: players.baseUrl,
        apiKey: players.apiKeyEnv ? env[players.apiKeyEnv] : undefined,
        retries: 0,
        timeoutMs: players.timeout * 1_000,
      });
      const fail = (message: string): PlayerMove => ({
        error: { cause: 'player', message },
        ms: performance.now() - started,
      });
      try {
        const reply: unknown = await client.chat.completions.create(
          {
            model: players.model,
            messages: [
              { role: 'system', content: players.persona },
              {
                role: 'user',
                content: `The game so far:\n\n${transcriptText(transcript)}\n\n---\n\nWrite only what you type as the player for turn ${turn}.`,
              },
            ],
            ...(players.temperature !== undefined ? { temperature: players.temperature } : {}),
          },
          signal ? { signal } : {},
        );
        // The SDK hands back a body that is not JSON as its text.
        let body = reply;
        if (typeof reply === 'string') {
          try {
            body = JSON.parse(reply);
          } catch {
            return fail(`${url} answered with a body that is not JSON`);
          }
        }
        const content = (body as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message
          ?.content;
        if (typeof content !== 'string' || content.trim() === '')
          return fail(`${url} answered without choices[0].message.content`);
        return { values: { [columns[0]!]: content.trim().slice(0, MAX_INPUT) }, ms: performance.now() - started };
      } catch (error) {
        const failed = modelFailure({ OpenAI }, error);
        if (failed.kind === 'timeout') return fail(`the simulated player gave no input within ${players.timeout} s`);
        if (failed.kind === 'status') return fail(`${url} answered ${failed.status}`);
        if (failed.kind === 'not-json') return fail(`${url} answered with a body that is not JSON`);
        return fail(`${url}: ${(error as Error).message}`);
      }
    },
  };
}

/**
 * A player played by a command: run without a shell for each turn with `{ fixture, rep, turn, transcript }` on stdin
 * as JSON; it prints the input (plain text for the first input column, or a JSON object of input columns).
 */
export function commandPlayer(
  players: CommandPlayers,
  columns: readonly string[],
  where: {
    projectDir: string;
    env: Readonly<Record<string, string | undefined>>;
    fixture: { name: string };
    rep: number;
  },
  signal?: AbortSignal,
): PlayerSource {
  const { projectDir, rep } = where;
  const fixture = where.fixture.name;
  // The environment the run was given, as the player's own (the library never reads the process's environment).
  const env = Object.fromEntries(
    Object.entries(where.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  // A string is split into words as a shell would (quotes keep spaces), an array taken as it is.
  const argv = commandWords(players.command);
  const cwd = resolve(projectDir, players.cwd ?? '.');
  return {
    next: (turn, _index, transcript) =>
      runPlayer(
        argv,
        { cwd, env },
        players.timeout,
        JSON.stringify({ fixture, rep, turn, transcript }),
        columns,
        signal,
      ),
  };
}

async function runPlayer(
  argv: readonly string[],
  where: { cwd: string; env: Record<string, string> },
  timeout: number,
  stdin: string,
  columns: readonly string[],
  signal?: AbortSignal,
): Promise<PlayerMove> {
  const started = performance.now();
  const program = argv[0]!;
  const fail = (message: string): PlayerMove => ({
    error: { cause: 'player', message },
    ms: performance.now() - started,
  });
  // Its own process group, killed with all it started on a timeout, an abort, and once it has answered.
  const run = await runBounded({
    argv,
    cwd: where.cwd,
    env: where.env,
    stdin,
    timeoutMs: timeout * 1_000,
    maxStdout: MAX_INPUT * 4,
    stdoutOverflow: 'cut',
    maxStderr: 2_000,
    killGraceMs: 0,
    signal,
  });
  if (run.spawnError) return fail(`the player command ${program}: ${run.spawnError.message}`);
  if (run.stopped === 'aborted') return fail(`the player command ${program}: The operation was aborted`);
  if (run.stopped === 'timeout') return fail(`the player command ${program} gave no input within ${timeout} s`);
  if (run.code !== 0)
    return fail(
      `the player command ${program} ${run.code === null ? `was killed by ${run.signal ?? 'a signal it did not name'}` : `exited with ${run.code}`}${run.stderr ? `: ${run.stderr.trim().split('\n')[0]}` : ''}`,
    );
  const text = run.stdout.trim();
  if (text === '') return fail(`the player command ${program} printed nothing`);
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const values = Object.fromEntries(
        columns.filter((column) => Object.hasOwn(parsed, column)).map((column) => [column, parsed[column]]),
      );
      if (Object.keys(values).length === 0)
        return fail(`the player command ${program} printed JSON without an input column`);
      return { values, ms: performance.now() - started };
    } catch {
      // Not JSON after all: the text is the input.
    }
  }
  return { values: { [columns[0]!]: text.slice(0, MAX_INPUT) }, ms: performance.now() - started };
}
