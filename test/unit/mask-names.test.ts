import { describe, expect, it } from 'vitest';
import { maskNames } from '../../src/marking/mask-names.js';

const mask = maskNames(
  new Map([
    ['xss-fixed', 'case 1'],
    ['xss', 'case 2'],
    ['fixtures/xss.json', 'case 2'],
  ]),
);

describe('maskNames: the blind re-mark hides fixture names in every form a reader could tell them by', () => {
  it.each([
    ['xss-fixed', 'case 1'],
    ['XSS-FIXED', 'case 1'],
    ['Xss_Fixed', 'case 1'],
    ['xss fixed', 'case 1'],
    ['xssfixed', 'case 1'],
    ['xss%2Dfixed', 'case 1'],
    ['xss%2dfixed', 'case 1'],
    ['xss%252Dfixed', 'case 1'],
    ['xss&#45;fixed', 'case 1'],
    ['xss&#x2D;fixed', 'case 1'],
    ['xss&hyphen;fixed', 'case 1'],
    ['xss\\u002dfixed', 'case 1'],
    ['%78ss-fixed', 'case 1'],
    ['&#88;SS-fixed', 'case 1'],
    ['xss\u2010fixed', 'case 1'],
    ['fixtures/xss.json', 'case 2'],
    ['fixtures%2Fxss.json', 'case 2'],
    ['see dir%2Fxss now', 'see dir%2Fcase 2 now'],
    ['the XSS fixture', 'the case 2 fixture'],
  ])('%s -> %s', (text, shown) => {
    expect(mask(text)).toBe(shown);
  });

  it('keeps a name that is only part of a word', () => {
    expect(mask('xsss and axss and xss2')).toBe('xsss and axss and xss2');
  });

  it('does not mask its own stand-ins again', () => {
    const own = maskNames(
      new Map([
        ['case', 'case 1'],
        ['b', 'case 2'],
      ]),
    );
    expect(own('case and b')).toBe('case 1 and case 2');
  });
});
