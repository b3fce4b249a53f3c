/**
 * How a blind re-mark names a rep: by its place in the shuffled order only. A fixture's name or a rep's number
 * would tell the grader which fixture (the constructed one, the base) they are looking at.
 */
export function neutralLabel(position: number, total: number): string {
  return `item ${position + 1} of ${total}`;
}
