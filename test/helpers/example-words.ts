/** A help example's command line as a shell would run it: the program, its words, and where stdout goes. */
export interface ExampleCommand {
  /** `turnkit`, or `echo` (an example that writes the file the next one reads). */
  program: 'turnkit' | 'echo';
  /** The program's arguments, quotes removed. */
  args: string[];
  /** The file of a `> FILE` redirect, if any. */
  stdoutTo?: string;
}

/**
 * Splits an example line (`turnkit ARGS... [> FILE] [# comment]`, or `echo WORDS > FILE`) into words as `sh` does for the little shell the
 * examples use: blanks, single and double quotes, one `> FILE`, and a comment from a word that starts with `#`.
 * Anything else a shell would interpret (`$`, backquotes, pipes, `;`, `&`, `<`, globs, backslashes) is refused, so
 * an example written with more shell than this is an error of the test instead of a line run differently.
 */
export function exampleCommand(line: string): ExampleCommand {
  const words: string[] = [];
  let word: string | undefined;
  let at = 0;
  const end = (): void => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  while (at < line.length) {
    const char = line[at]!;
    if (char === ' ' || char === '\t') {
      end();
      at++;
    } else if (char === '#' && word === undefined) {
      break;
    } else if (char === "'" || char === '"') {
      const close = line.indexOf(char, at + 1);
      if (close < 0) throw new Error(`${line}: unclosed ${char}`);
      const quoted = line.slice(at + 1, close);
      if (char === '"' && /[$`\\]/.test(quoted)) throw new Error(`${line}: "${quoted}" needs a shell to expand`);
      word = (word ?? '') + quoted;
      at = close + 1;
    } else if (char === '>') {
      end();
      words.push('>');
      at++;
    } else if (/[$`|;&<()*?[\]\\{}~]/.test(char)) {
      throw new Error(`${line}: "${char}" needs a shell`);
    } else {
      word = (word ?? '') + char;
      at++;
    }
  }
  end();
  const program = words[0];
  if (program !== 'turnkit' && program !== 'echo') throw new Error(`${line}: does not start with turnkit or echo`);
  const redirect = words.indexOf('>');
  if (redirect < 0) return { program, args: words.slice(1) };
  if (redirect !== words.length - 2 || words[redirect + 1] === '>')
    throw new Error(`${line}: only one "> FILE" at the end is understood`);
  return { program, args: words.slice(1, redirect), stdoutTo: words[redirect + 1]! };
}
