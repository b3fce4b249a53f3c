/** A Markdown fence, as the guides write them. */
export const FENCE = '```';

/** A guide's fenced blocks of one language, in order. */
export function blocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp(`${FENCE}${language}\\n([\\s\\S]*?)${FENCE}`, 'g'))].map((match) => match[1]!);
}

/** A block's commands as argv lists: comments dropped, `npx turnkit` removed, each word through `fill`. */
export function commands(block: string, fill: (word: string) => string): string[][] {
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('npx turnkit '))
    .map((line) => line.slice('npx turnkit '.length).split(/\s+/).map(fill));
}
