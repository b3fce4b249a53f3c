import type { TeardownReport } from '../scratch/remap/teardown-remap.js';

/** One line saying what a teardown removed. */
export function describeTeardown(report: TeardownReport): string {
  const total = Object.values(report.deleted).reduce((sum, count) => sum + count, 0);
  const added = Object.entries(report.addedBySut).map(([table, count]) => `${count} in ${table}`);
  // A database of its own goes whole: its rows were never counted, and "0 rows" would say nothing was removed.
  const removed =
    report.droppedDatabase !== undefined && total === 0
      ? `dropped database ${report.droppedDatabase} with everything in it`
      : `${total} rows`;
  const parts = [`removed ${report.id} (${report.fixture}, key ${report.key}): ${removed}`];
  if (added.length > 0) parts.push(`of which the game added ${added.join(', ')}`);
  if (report.sharedDeleted > 0) parts.push(`${report.sharedDeleted} shared rows it had inserted`);
  if (report.sharedKept > 0) parts.push(`${report.sharedKept} shared rows kept because live rows use them`);
  return parts.join('; ');
}
