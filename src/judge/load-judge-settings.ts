import { HAND_WRITTEN_LIMIT, readInputText } from '../util/read-input.js';
import { parseDocument } from 'yaml';
import { shownPath } from '../util/shown-path.js';
import { yamlValue } from '../util/yaml-value.js';
import { TurnkitError } from '../errors.js';
import { parseWithSchema, positionAt } from '../util/json/json-source.js';
import { judgeSettingsSchema, type JudgeSettings, type JudgeSettingsInput } from '../config/judge-settings.js';

/**
 * The judge's settings: the config's `judge`, then a settings file (YAML or JSON, `--judge FILE`) over it, then the
 * command line's flags. Problems name the file (or the flags) and the path: `examples/judge.yaml: $.provider: ...`.
 */
export async function loadJudgeSettings(
  file: string | undefined,
  flags: Partial<JudgeSettingsInput>,
  fromConfig: Partial<JudgeSettingsInput> = {},
): Promise<JudgeSettings> {
  let fromFile: Record<string, unknown> = {};
  if (file !== undefined) {
    const text = await readInputText(file, shownPath(file), HAND_WRITTEN_LIMIT);
    const document = parseDocument(text, { prettyErrors: false });
    const syntax = document.errors[0];
    if (syntax) {
      const at = positionAt(text, syntax.pos[0]);
      throw new TurnkitError(
        'BAD_INPUT',
        `${shownPath(file)}:${at.line}:${at.column}: ${syntax.message.split('\n')[0]}`,
      );
    }
    const value: unknown = yamlValue(document, text, shownPath(file));
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new TurnkitError('BAD_INPUT', `${shownPath(file)}: expected a mapping of judge settings`);
    fromFile = value as Record<string, unknown>;
  }
  const given = Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
  const where =
    file !== undefined ? shownPath(file) : Object.keys(given).length > 0 ? 'judge flags' : "the config's judge";
  return parseWithSchema(judgeSettingsSchema, { ...fromConfig, ...fromFile, ...given }, where);
}
