/**
 * Colour, decided once at start-up by the CLI and passed down: renderers never look at the terminal or
 * the environment. Without colour every style gives its text back as it is — byte for byte what a level-0
 * chalk gives, on every run — and chalk is not even loaded: loading it detects the terminal (node:tty, and
 * node:net behind it), ~5 ms of every start that prints no colour. With colour, chalk styles the text.
 */
import type { ChalkInstance } from 'chalk';

export interface Style {
  c: ChalkInstance;
  color: boolean;
}

/**
 * A level-0 chalk without chalk: any chain of styles (`c.red.bold`) is this same function, which returns
 * its text as chalk does at level 0 — one argument as a string, several joined by spaces — and `visible`
 * hides text at level 0, so it gives ''. test/render/style.test.ts holds it to chalk's own level 0.
 */
const unstyled: ChalkInstance = new Proxy((...texts: unknown[]) => (texts.length === 1 ? '' + (texts[0] as string) : texts.join(' ')), {
  get: (_target, key) => (key === 'level' ? 0 : key === 'visible' ? () => '' : unstyled),
}) as unknown as ChalkInstance;

/** No colour: plain text. */
export const PLAIN: Style = { c: unstyled, color: false };

/** Colour, at the level given or else at the one chalk detects for this terminal (at least 1). */
export async function colorStyle(level?: 1 | 2 | 3): Promise<Style> {
  const { default: chalk, Chalk } = await import('chalk');
  return { c: new Chalk({ level: level ?? (chalk.level > 0 ? chalk.level : 1) }), color: true };
}
