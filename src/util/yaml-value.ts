import { visit, type Document } from 'yaml';
import { TurnkitError } from '../errors.js';
import { positionAt } from './json/json-source.js';

/**
 * A parsed YAML document's value. Aliases that expand without end (a "billion laughs" file) are refused by the
 * yaml package with a message that names no file: here it names the file and the first alias.
 */
export function yamlValue(document: Document, text: string, shown: string): unknown {
  try {
    return document.toJS();
  } catch (error) {
    if (!/alias/i.test((error as Error)?.message ?? '')) throw error;
    let offset: number | undefined;
    visit(document, {
      Alias(_key, node) {
        offset = node.range?.[0];
        return visit.BREAK;
      },
    });
    const where =
      offset !== undefined ? `${shown}:${positionAt(text, offset).line}:${positionAt(text, offset).column}` : shown;
    throw new TurnkitError(
      'BAD_INPUT',
      `${where}: invalid YAML: aliases expand too far (${(error as Error).message.split('\n')[0]}); write the values out instead`,
    );
  }
}
