// turnkit's library API: every CLI command is one of these functions first.
export {
  defineConfig,
  configSchema,
  type TurnkitConfig,
  type TurnkitConfigInput,
  type GameConfig,
  type CaseFileFunction,
  type CaseFileContext,
  type CaseFileFixture,
} from './config/schema.js';
export { caseFileSource, CONFIG_CASE_FILE, type CaseFileSource } from './pipeline/case-file-source.js';
export { loadConfig, type LoadedConfig, type LoadConfigOptions } from './config/load.js';
export { sampleGameConfig } from './config/sample-config.js';
export { init, type InitResult } from './config/init.js';
export type { CommonOptions } from './config/common-options.js';
export { TurnkitError, type TurnkitErrorCode, exitCodeFor } from './errors.js';
export {
  openProject,
  projectPaths,
  type Project,
  type ProjectPaths,
  type OpenProjectOptions,
} from './project/open-project.js';
export { openDb, usingDb, chooseDatabaseUrl, type Db, type Backend, type OpenDbOptions } from './db/connect.js';
export { openEmbedded, type EmbeddedServer, type EmbeddedOptions } from './db/embedded.js';
export { migrate, migrationsFolder, SAMPLE_MIGRATIONS_DIR, TURNKIT_SCHEMA, type MigrateResult } from './db/migrate.js';
export { introspect } from './db/introspect.js';
export type { Catalog, TableInfo, ColumnInfo, ForeignKeyInfo, Codec, ValueKind } from './db/catalog-types.js';
export { dbStart, dbUrl, dbMigrate, dbStop } from './app/db-commands.js';
export { redactUrl } from './db/url.js';
export { createSampleCampaign, type SampleOptions } from './sample/create-sample.js';
export { sample, type SampleCommandOptions } from './sample/sample-command.js';
export { MISLEADING_TURN, PROBE_TURN, MISLEADING_NARRATION, CORRECTED_NARRATION } from './sample/turn-script.js';
export { captureFromDb, type CaptureRequest, type CaptureOutcome, type TurnSelection } from './fixture/capture.js';
export { capture, type CaptureOptions, type CaptureResult } from './app/capture-command.js';
export type {
  ScrubConfigInput,
  ScrubTransformInput,
  ScrubFunction,
  ScrubFunctionContext,
} from './config/scrub-schema.js';
export type { ScrubOptions } from './fixture/scrub/scrubber.js';
export { DEMO_SCRUB_KEY } from './fixture/scrub/demo-key.js';
export { resolveGameGraph, type GameGraph } from './fixture/game-graph.js';
export { writeFixtures, writeSchemaFile } from './fixture/write-fixtures.js';
export { readFixture, parseFixtureText } from './fixture/read-fixture.js';
export { verify, type VerifyOptions, type VerifyResult } from './app/verify-command.js';
export { show, summarizeFixture, type FixtureSummary } from './fixture/show-fixture.js';
export { loadFixture, readConstructed, type LoadedFixture, type ConstructedFile } from './fixture/load-fixture.js';
export { construct, type ConstructOptions } from './app/construct-command.js';
export { materialize, type MaterializeOptions } from './construct/materialize-command.js';
export { rebase, RebaseConflictError, type RebaseOptions, type RebaseResult } from './construct/rebase-command.js';
export {
  saveConstructed,
  buildConstructed,
  type ConstructRequest,
  type SavedConstructed,
} from './construct/save-constructed.js';
export { diffFixtures, type FixtureDiff } from './construct/diff-fixtures.js';
export {
  EditSession,
  openEditSession,
  type OpenEditOptions,
  type TurnListing,
  type EditableRow,
  type EditableField,
  type ShownChange,
} from './construct/edit-session.js';
export {
  editInExternalEditor,
  KeptEditError,
  type ExternalEditOptions,
  type ExternalEditResult,
} from './construct/external-edit.js';
export { applyChanges, type ChangeConflict, type AppliedChanges } from './fixture/apply-changes.js';
export { applyPatch } from './construct/patch.js';
export { rowsTiedToTurn, turnsInOrder, type TurnEntry } from './fixture/turn-rows.js';
export {
  constructedSchema,
  constructedJsonSchema,
  CONSTRUCTED_FORMAT,
  type ConstructedFixture,
} from './fixture/constructed-format.js';
export type { ColumnChange } from './fixture/column-change.js';
export { decodeValue, encodeValue, type JsonValue } from './fixture/value-codec.js';
export {
  fixtureSchema,
  fixtureJsonSchema,
  serializeDocument,
  FIXTURE_FORMAT,
  type Fixture,
  type FixtureTable,
  type FixtureRow,
} from './fixture/format.js';
export {
  ScratchSession,
  seed,
  teardown,
  type ScratchCampaign,
  type ScratchOptions,
  type FixtureSource,
} from './scratch/scratch-session.js';
export {
  seedCommand,
  teardownCommand,
  gcCommand,
  type SeedCommandOptions,
  type SeedCommandResult,
  type TeardownCommandOptions,
} from './app/scratch-commands.js';
export { collectGarbage, DEFAULT_GC_TTL_MS, type GcOptions, type GcReport } from './scratch/gc.js';
export { checkScratch, type ScratchCheck } from './scratch/check-scratch.js';
export type { TeardownReport } from './scratch/teardown-remap.js';
export type { RegistryEntry, ScratchStrategy } from './scratch/registry.js';
export { currentProcess, type ProcessIdentity } from './scratch/process-identity.js';
export { runQuestion, type RunOptions, type RunResult, type RunProgress } from './app/run-question.js';
export { interleave, planReps, parseShard, inShard, type ShardSpec } from './pipeline/run-plan.js';
export { loadQuestion, type LoadedQuestion } from './pipeline/load-question.js';
export { questionSchema, sutSchema, type Question, type SutConfig } from './pipeline/question-format.js';
export { renderCaseFile, PLACEHOLDERS } from './pipeline/case-file.js';
export { formatMarks, MARKS_COLUMNS, type Mark, type MarkRow } from './marks/marks-file.js';
export { parseMarks } from './marks/read-marks.js';
export { manifestSchema, RUN_FORMAT, type Manifest } from './pipeline/manifest.js';
export { readRunState, readManifest, type RunState, type RepKey } from './pipeline/run-state.js';
export type { RepRecord, RepEffects } from './pipeline/rep-record.js';
export type { SutRequest, SutOutcome } from './pipeline/sut-request.js';
export type { ModuleSutFunction, ModuleSutTools } from './pipeline/sut-module.js';
export { verifyProject } from './app/verify-project.js';
export {
  readMarksFile,
  parseMarksText,
  scopeOfRun,
  MARKS,
  type ReadMark,
  type MarksScope,
} from './marks/read-marks.js';
export { mergeRuns, type MergeOptions, type MergeResult } from './pipeline/merge-runs.js';
export { checksSchema, type Checks } from './pipeline/checks-format.js';
export {
  buildReport,
  countMarks,
  tagTotals,
  type Report,
  type ReportOptions,
  type FixtureReport,
  type TagTotals,
  type BasePair,
  type MarkCounts,
  type Verdict,
} from './marks/build-report.js';
export { compareReports, type Comparison, type FixtureDelta } from './marks/compare-runs.js';
export { formatReport, formatComparison, type ReportStyle } from './marks/format-report.js';
export {
  report,
  incompleteRun,
  targetProblems,
  type ReportCommandOptions,
  type ReportResult,
} from './marks/report-command.js';
export {
  judgeChecks,
  CHECKS_MARKS_FILE,
  type JudgeChecksOptions,
  type JudgeChecksResult,
} from './marks/judge-checks.js';
export { applyChecks, containsTerm, type CheckVerdict } from './marks/run-checks.js';
export {
  wilsonInterval,
  fisherExact,
  passesNeeded,
  targetDemand,
  lowerMedian,
  nearestRank,
  type Interval,
} from './marks/stats.js';
export { demo, type DemoOptions, type DemoResult } from './demo/demo-command.js';
export { agreement, cohensKappa, type Agreement, type Disagreement } from './marks/agreement.js';
export { agree, type AgreeOptions, type AgreeResult } from './marks/agree-command.js';
export { formatAgreement } from './marks/format-agreement.js';
export { MarkingSession, type MarkingOptions, type MarkingRep } from './marks/marking-session.js';
export { judgeWithModel, type JudgeModelOptions, type JudgeModelResult } from './marks/judge-model.js';
export { judgeSettingsSchema, type JudgeSettings, type JudgeSettingsInput } from './config/judge-settings.js';
export { loadJudgeSettings } from './marks/load-judge-settings.js';
export { parseVerdict, verdictSchema, type ParsedVerdict } from './marks/judge-verdict.js';
