import { relative } from 'node:path';
import type { LoadedFixture } from '../fixture/load-fixture.js';
import type { Backend } from '../db/connect.js';
import { QUESTION_OBJECT, type LoadedQuestion } from '../question/load-question.js';
import { TURNKIT_VERSION } from '../version.js';
import type { Manifest } from '../run-dir/manifest.js';
import { sha256 } from '../util/sha256.js';
import { sutKind } from '../sut/sut-kinds.js';
import type { PlayersConfig } from '../question/rollout-format.js';
import type { PlayerIdentity } from '../rollout/player-identity.js';
import { shownUrl } from '../util/url-secrets.js';
import type { QuestionFixture } from './resolve-fixtures.js';
import type { ShardSpec } from '../run-dir/rep-order.js';

/** What a new run's manifest records. */
export interface ManifestInputs {
  question: LoadedQuestion;
  rubricText: string;
  rubricPath: string;
  /** The case-file template's text (or a config function's source) and its path relative to the project. */
  template: string;
  templatePath: string;
  fixtures: readonly QuestionFixture[];
  projectDir: string;
  reps: number;
  concurrency: number;
  now: Date;
  backend: Backend;
  serverVersion: string;
  strategy: string;
  shard?: ShardSpec | undefined;
  /** Where the run ran and with what (run-provenance.ts): read before the manifest is built. */
  provenance: {
    git: Manifest['git'];
    machine: NonNullable<Manifest['machine']>;
    sutFiles: NonNullable<Manifest['sutFiles']>;
  };
}

/** The manifest of a new run, before its first rep: everything needed to say later what exactly was run. */
export function buildManifest(inputs: ManifestInputs): Manifest {
  const { question, projectDir } = inputs;
  const q = question.question;
  const { git, machine, sutFiles } = inputs.provenance;
  return {
    format: 'turnkit.run/1',
    status: 'running',
    startedAt: inputs.now.toISOString(),
    turnkit: TURNKIT_VERSION,
    node: process.version,
    ...(git ? { git } : {}),
    machine,
    question: {
      id: q.id,
      text: q.question,
      file: {
        path: question.path === QUESTION_OBJECT ? QUESTION_OBJECT : portable(projectDir, question.path),
        sha256: sha256(question.text),
      },
      target: q.target,
      reps: inputs.reps,
      // The default is left out, so that the manifests of questions that say nothing stay byte for byte alike.
      ...(q.errors === 'fail' ? { errors: 'fail' as const } : {}),
    },
    rubric: {
      path: portable(projectDir, inputs.rubricPath),
      version: q.rubric.version,
      sha256: sha256(inputs.rubricText),
    },
    caseFileTemplate: { path: inputs.templatePath, sha256: sha256(inputs.template) },
    ...(q.checks ? { checks: q.checks } : {}),
    ...(q.tools ? { tools: q.tools } : {}),
    ...(q.hidden ? { hidden: q.hidden } : {}),
    ...((q.turns ?? 1) > 1
      ? {
          rollout: {
            turns: q.turns!,
            players: q.players?.type ?? 'recorded',
            player: playerIdentity(q.players),
            ...(q.stopOn ? { stopOn: q.stopOn } : {}),
            ...(q.transcriptChecks ? { transcriptChecks: q.transcriptChecks } : {}),
          },
        }
      : {}),
    ...(inputs.shard ? { shard: inputs.shard } : {}),
    fixtures: inputs.fixtures.map(({ loaded, tag, skip, upgraded }) => ({
      name: loaded.fixture.name,
      file: { path: portable(projectDir, loaded.path), sha256: loaded.sha256 },
      ...(tag ? { tag } : {}),
      ...(skip ? { skip } : {}),
      ...(loaded.constructed
        ? { bases: basesOf(loaded).map((base) => ({ path: portable(projectDir, base.path), sha256: base.sha256 })) }
        : {}),
      ...(upgraded
        ? {
            upgraded: {
              path: portable(projectDir, upgraded.path),
              sha256: upgraded.sha256,
              migrations: upgraded.migrations,
            },
          }
        : {}),
    })),
    // As its kind describes it: no secret, no function.
    sut: sutKind(q.sut).describe(q.sut),
    ...(sutFiles.length > 0 ? { sutFiles } : {}),
    database: { backend: inputs.backend, serverVersion: inputs.serverVersion, strategy: inputs.strategy },
    concurrency: inputs.concurrency,
    order: [],
  };
}

function basesOf(loaded: LoadedFixture): LoadedFixture[] {
  return loaded.constructed ? [loaded.constructed.base, ...basesOf(loaded.constructed.base)] : [];
}

// Paths in the manifest are relative to the project, with "/" on every system.
function portable(projectDir: string, path: string): string {
  return relative(projectDir, path).split('\\').join('/');
}

/** The identity of a question's players (recorded inputs when the question names none), as the manifest pins it. */
function playerIdentity(players: PlayersConfig | undefined): PlayerIdentity {
  if (!players || players.type === 'recorded') return { type: 'recorded' };
  switch (players.type) {
    case 'simulated':
      return {
        type: 'simulated',
        model: players.model,
        baseUrl: shownUrl(players.baseUrl),
        promptSha256: sha256(players.persona),
        ...(players.temperature !== undefined ? { temperature: players.temperature } : {}),
      };
    case 'command':
      return {
        type: 'command',
        command: typeof players.command === 'string' ? players.command : players.command.join(' '),
      };
    case 'script':
      return {
        type: 'script',
        scriptSha256: sha256(JSON.stringify({ inputs: players.inputs ?? null, byFixture: players.byFixture ?? null })),
      };
  }
}
