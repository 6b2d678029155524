/**
 * Colour, decided once at start-up by the CLI and passed down: renderers never look at the terminal or
 * the environment. A level-0 chalk gives plain text, byte for byte the same on every run.
 */
import { Chalk, type ChalkInstance } from 'chalk';

export interface Style {
  c: ChalkInstance;
  color: boolean;
}

export function makeStyle(color: boolean, level: 1 | 2 | 3 = 1): Style {
  return { c: new Chalk({ level: color ? level : 0 }), color };
}

export const PLAIN: Style = makeStyle(false);
