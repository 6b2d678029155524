/**
 * The one table of wide characters (src/render/format.ts): East_Asian_Width W and F from Unicode's
 * EastAsianWidth.txt, read alike by the width (`displayWidth`, `charWidth`) and the line breaking (`flow`).
 */
import { describe, expect, it } from 'vitest';
import { charWidth, displayWidth, flow, isCjk, isWide, wrap } from '../../src/render/format.js';

const cp = (ch: string) => ch.codePointAt(0)!;

describe('the width of one character', () => {
  it.each([
    ['a', 1, 'Latin (Na)'],
    ['中', 2, 'CJK Unified Ideograph (W)'],
    ['，', 2, 'FULLWIDTH COMMA U+FF0C (F)'],
    ['（', 2, 'FULLWIDTH LEFT PARENTHESIS U+FF08 (F)'],
    ['、', 2, 'IDEOGRAPHIC COMMA U+3001 (W)'],
    ['。', 2, 'IDEOGRAPHIC FULL STOP U+3002 (W)'],
    ['\u3000', 2, 'IDEOGRAPHIC SPACE (F)'],
    ['か', 2, 'Hiragana (W)'],
    ['カ', 2, 'Katakana (W)'],
    ['ｱ', 1, 'HALFWIDTH KATAKANA LETTER A U+FF71 (H): narrow'],
    ['한', 2, 'Hangul Syllable (W)'],
    ['…', 1, 'HORIZONTAL ELLIPSIS (A): one column outside an East Asian locale'],
    ['→', 1, 'RIGHTWARDS ARROW (A)'],
    ['〿', 1, 'IDEOGRAPHIC HALF FILL SPACE U+303F (N), inside the CJK Symbols block'],
    ['㉈', 1, 'CIRCLED NUMBER TEN ON BLACK SQUARE U+3248 (A), inside Enclosed CJK'],
    ['䷀', 1, 'Yijing Hexagram U+4DC0 (N), between Extension A and the Unified Ideographs'],
    ['\u2329', 2, 'LEFT-POINTING ANGLE BRACKET U+2329 (W), in Miscellaneous Technical'],
    ['\u{20000}', 2, 'CJK Extension B, plane 2 (W)'],
    ['⚡', 2, 'HIGH VOLTAGE U+26A1 (W)'],
    ['😀', 2, 'Emoticons (W)'],
    ['🌡', 1, 'THERMOMETER U+1F321 (N)'],
  ])('%s is %i column(s): %s', (ch, width) => {
    expect(charWidth(cp(ch))).toBe(width);
    expect(displayWidth(ch)).toBe(width);
    expect(isWide(cp(ch))).toBe(width === 2);
  });

  it('a wide symbol is not CJK: it is a word like any other, not a place to break', () => {
    expect(isWide(cp('⚡'))).toBe(true);
    expect(isCjk(cp('⚡'))).toBe(false);
    expect(isCjk(cp('、'))).toBe(true);
    expect(isCjk(cp('ｱ'))).toBe(false);
  });
});

describe('line breaking reads the same table', () => {
  it('breaks between ideographs outside the Basic Multilingual Plane too', () => {
    const lines = wrap('\u{20000}'.repeat(12), 10).split('\n');
    expect(lines.map(displayWidth)).toEqual([10, 10, 4]);
  });

  it('joins a CJK Compatibility Ideograph to the Chinese before it with no space, like any other CJK character', () => {
    expect(flow([['中文', null], ['字', null]], { width: 40 })).toEqual(['中文字']);
    expect(flow([['中文', null], ['\uf900字', null]], { width: 40 })).toEqual(['中文\uf900字']);
  });
});
