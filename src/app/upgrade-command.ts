import type { CommonOptions } from '../config/common-options.js';
import { upgrade as upgradeInProject, type UpgradeInput, type UpgradeResult } from '../upgrade/upgrade-fixtures.js';
import { commandContext } from './command-context.js';

export type { UpgradeResult } from '../upgrade/upgrade-fixtures.js';

/** Options of `turnkit upgrade`. */
export interface UpgradeOptions extends CommonOptions, UpgradeInput {}

/** `turnkit upgrade`: the project of the config found from `cwd` (see `upgrade`). */
export async function upgrade(options: UpgradeOptions): Promise<UpgradeResult> {
  return upgradeInProject(await commandContext(options), options);
}
