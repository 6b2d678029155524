import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { colorStyle, PLAIN } from '../../src/render/style.js';
import { paint, type Tone } from '../../src/render/tone.js';

const TONES: Tone[] = ['plain', 'dim', 'ok', 'okStrong', 'bad', 'badStrong', 'warn', 'db', 'fault', 'other', 'prepared', 'attempt'];

/** Colour off does without chalk, so it must say exactly what chalk at level 0 says. */
describe('PLAIN, the style without colour', () => {
  const chalk = new Chalk({ level: 0 });
  const texts: unknown[][] = [['refused'], [''], ['a', 'b'], [3], [undefined], [null], ['━━ 1/17 happy_path ━'], []];

  it('gives every text back as chalk at level 0 does, through any chain of styles', () => {
    for (const args of texts) {
      expect(PLAIN.c.red(...args)).toBe(chalk.red(...args));
      expect(PLAIN.c.dim(...args)).toBe(chalk.dim(...args));
      expect(PLAIN.c.magenta.bold(...args)).toBe(chalk.magenta.bold(...args));
      expect(PLAIN.c.bold.green.underline(...args)).toBe(chalk.bold.green.underline(...args));
      expect(PLAIN.c.visible(...args)).toBe(chalk.visible(...args));
    }
    expect(PLAIN.c.level).toBe(chalk.level);
    expect(PLAIN.color).toBe(false);
  });

  it('paints every tone as plain text', () => {
    for (const tone of TONES) expect(paint(PLAIN, tone, 'reserve ×1')).toBe(paint({ c: chalk, color: false }, tone, 'reserve ×1'));
  });
});

describe('colorStyle', () => {
  it('colours at the level asked', async () => {
    const style = await colorStyle(1);
    expect(style.color).toBe(true);
    expect(style.c.level).toBe(1);
    expect(paint(style, 'bad', 'refused')).toBe('\u001b[31mrefused\u001b[39m');
  });
});
