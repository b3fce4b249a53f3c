import { describe, expect, it } from 'vitest';
import { wrap } from '../../src/tui/text-buffer.js';
import { deleteWord, moveToTextEdge, moveWord, wordBoundary } from '../../src/tui/text-words.js';
import { findMatch, matchCount } from '../../src/tui/text-search.js';
import { EMPTY_HISTORY, record, redo, undo } from '../../src/tui/text-history.js';
import { reflowMarkdown } from '../../src/util/reflow-markdown.js';

describe('soft wrapping keeps words whole', () => {
  it('breaks at a space that falls exactly at the width instead of cutting the word before it', () => {
    // Before: "deck" filled the width and the space after it started the next line ("deck" | " two").
    expect(wrap('deck two', 4).map((line) => line.text)).toEqual(['deck ', 'two']);
    expect(wrap('one deck two', 8).map((line) => line.text)).toEqual(['one deck ', 'two']);
    // Only a word longer than the width is cut.
    expect(wrap('engineering', 5).map((line) => line.text)).toEqual(['engin', 'eerin', 'g']);
  });
});

describe('word movement and deletion', () => {
  const text = 'the mess-hall, on deck 2.';
  it('moves to the start of the previous word and past the end of the next one', () => {
    expect(wordBoundary(text, 0, 1)).toBe(3);
    expect(wordBoundary(text, 3, 1)).toBe(8);
    expect(wordBoundary(text, 8, 1)).toBe(13);
    expect(wordBoundary(text, text.length, -1)).toBe(23);
    expect(wordBoundary(text, 13, -1)).toBe(9);
    expect(moveWord({ text, cursor: 0 }, -1).cursor).toBe(0);
    expect(moveWord({ text: 'déjà vu', cursor: 0 }, 1).cursor).toBe(4);
    expect(moveToTextEdge({ text, cursor: 5 }, 'end').cursor).toBe(text.length);
    expect(moveToTextEdge({ text, cursor: 5 }, 'start').cursor).toBe(0);
  });
  it('deletes the word before the cursor or after it', () => {
    expect(deleteWord({ text, cursor: 8 }, -1)).toEqual({ text: 'the -hall, on deck 2.', cursor: 4 });
    expect(deleteWord({ text, cursor: 4 }, 1)).toEqual({ text: 'the -hall, on deck 2.', cursor: 4 });
  });
});

describe('search within a field', () => {
  it('finds the next match from an offset, wrapping around, case-insensitive unless the query has a capital', () => {
    const text = 'Deck 2, deck 3, DECK 4';
    expect(findMatch(text, 'deck', 0)).toBe(0);
    expect(findMatch(text, 'deck', 1)).toBe(8);
    expect(findMatch(text, 'deck', 17)).toBe(0);
    expect(findMatch(text, 'Deck', 1)).toBe(0);
    expect(findMatch(text, 'deck', 8, -1)).toBe(0);
    expect(findMatch(text, 'deck', 0, -1)).toBe(16);
    expect(findMatch(text, 'lift', 0)).toBeUndefined();
    expect(matchCount(text, 'deck', 8)).toEqual({ count: 3, index: 2 });
  });
});

describe('undo history', () => {
  it('undoes typed letters a word at a time, other edits one by one, and redoes them', () => {
    let history = EMPTY_HISTORY;
    let buffer = { text: '', cursor: 0 };
    for (const letter of 'deck two') {
      const next = { text: buffer.text + letter, cursor: buffer.cursor + 1 };
      history = record(history, buffer, next, letter);
      buffer = next;
    }
    const step1 = undo(history, buffer)!;
    expect(step1.buffer.text).toBe('deck ');
    const step2 = undo(step1.history, step1.buffer)!;
    expect(step2.buffer.text).toBe('deck');
    const step3 = undo(step2.history, step2.buffer)!;
    expect(step3.buffer.text).toBe('');
    expect(undo(step3.history, step3.buffer)).toBeUndefined();
    const again = redo(step3.history, step3.buffer)!;
    expect(again.buffer.text).toBe('deck');
    // Letters that came in one read ("ed" after "r") are the same word as the letter before them.
    const r = record(EMPTY_HISTORY, { text: 'x ', cursor: 2 }, { text: 'x r', cursor: 3 }, 'r');
    const red = record(r, { text: 'x r', cursor: 3 }, { text: 'x red', cursor: 5 }, 'ed');
    expect(undo(red, { text: 'x red', cursor: 5 })!.buffer.text).toBe('x ');
    // A cursor move ends a word: the letters after it are a step of their own.
    const moved = record(EMPTY_HISTORY, { text: 'ab', cursor: 1 }, { text: 'ab', cursor: 0 });
    expect(moved.past).toEqual([]);
  });
});

describe('reflowing hard-wrapped Markdown', () => {
  it('joins paragraph and list-item lines and keeps headings, tables, code and hard breaks', () => {
    const text =
      '# Title\nfirst line\nsecond line\n\n- item one\n  goes on\n- item two\n\n| a | b |\n| - | - |\n\n```\ncode\nstays\n```\nbreak here  \nnext';
    expect(reflowMarkdown(text)).toBe(
      '# Title\nfirst line second line\n\n- item one goes on\n- item two\n\n| a | b |\n| - | - |\n\n```\ncode\nstays\n```\nbreak here  \nnext',
    );
  });
});
