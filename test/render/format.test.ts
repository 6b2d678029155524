/** Measuring and wrapping text the way a terminal shows it: columns, not `.length`. */
import { describe, expect, it } from 'vitest';
import { displayWidth, flow, GLUE, traceKey, wrap } from '../../src/render/format.js';

describe('displayWidth', () => {
  it('counts a CJK character as two columns, a colour code as none, a combining mark as none', () => {
    expect(displayWidth('reserve')).toBe(7);
    expect(displayWidth('幂等键')).toBe(6); // "idempotency key": 3 characters, 6 columns
    expect(displayWidth('\x1b[31mred\x1b[39m')).toBe(3);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('⚡ fault')).toBe(8); // the fault's sign is an East Asian Wide emoji
    expect(displayWidth('✔ ✘ ↻ →')).toBe(7);
  });
});

describe('flow', () => {
  it('fills lines up to the width and hangs the rest under the indent', () => {
    const lines = flow([['the tool committed; the reply is lost on the way back', null]], { width: 24, indent: '  ⚡ ' });
    expect(lines).toEqual(['  ⚡ the tool committed;', '     the reply is lost', '     on the way back']); // ⚡ takes two columns
    expect(Math.max(...lines.map(displayWidth))).toBeLessThanOrEqual(24);
  });

  it('wraps Chinese text by its display width, between characters (it has no spaces)', () => {
    const lines = wrap('运行器无法知道工具是否已经提交了这次预订', 20, '  ').split('\n');
    expect(lines.map(displayWidth)).toEqual([20, 20, 6]); // 9 characters of 2 columns after the indent, then the last 2
    expect(lines.join('').replaceAll(' ', '')).toBe('运行器无法知道工具是否已经提交了这次预订');
  });

  it('never splits a Chinese word: 放弃 stays whole, and 第 2 次尝试 stays with its number', () => {
    const text = '重试预算用完：reserve 在第 2 次尝试之后放弃了，待定动作留在日志里';
    for (let width = 12; width <= 60; width++) {
      const lines = wrap(text, width).split('\n');
      expect(lines.join('').replaceAll(' ', ''), `width ${width}`).toBe(text.replaceAll(' ', ''));
      for (const word of ['重试', '放弃', '第 2 次尝试', '待定']) expect(lines.some((line) => line.includes(word)), `${word} at width ${width}: ${lines.join(' / ')}`).toBe(true);
      expect(Math.max(...lines.map(displayWidth)), `width ${width}`).toBeLessThanOrEqual(width);
    }
    expect(wrap('reserve 在第 2 次尝试之后放弃了', 16).split('\n')).toEqual(['reserve 在', '第 2 次尝试之后', '放弃了']);
    // a Chinese word wider than a whole line is still cut, between its characters
    expect(wrap('放弃放弃放弃', 4).split('\n').every((line) => displayWidth(line) <= 4)).toBe(true);
  });

  it('keeps an unbreakable token whole on a line of its own, the one thing allowed past the width', () => {
    const key = 'retry_after_version_moved:reserve:2872d1b41daae32b0ce88be6d8774feb';
    expect(flow([[`key made here: ${key}`, null]], { width: 40, indent: '  ' })).toEqual(['  key made here:', `  ${key}`]);
  });

  it('never leaves a number alone at the start of a line, and keeps glued words together', () => {
    expect(flow([['version_after 1', null]], { width: 14 })).toEqual(['version_after 1']);
    expect(flow([[`reserve stays pending ·${GLUE}attempt${GLUE}1${GLUE}of${GLUE}3`, null]], { width: 26 })).toEqual(['reserve stays pending', '· attempt 1 of 3']);
  });

  it('paints each word with its run’s colour and measures without the codes', () => {
    const red = (x: string) => `<${x}>`;
    expect(flow([['a', null], ['b c', red]], { width: 80 })).toEqual(['a <b> <c>']);
  });
});

describe('traceKey', () => {
  const key = traceKey('lost_reply');
  it('shortens the task’s own derived key to its hash’s first 8 hex characters', () => {
    expect(key('lost_reply:reserve:2872d1b41daae32b0ce88be6d8774feb')).toBe('2872d1b4…');
  });
  it('keeps the owner of any other key in sight: another client’s, or one a runner made up', () => {
    expect(key('other:reserve:2872d1b41daae32b0ce88be6d8774feb')).toBe('other:reserve:2872d1b4…');
    expect(key('lost_reply:reserve:attempt-4')).toBe('lost_reply:reserve:attempt-4');
  });
});
