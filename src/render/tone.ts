/**
 * What a line of a trace means, in one word, and how each meaning looks. Describers (pure) pick a tone;
 * only `paint` turns it into colour, through the Style the CLI chose once — so plain text stays plain.
 */
import type { Style } from './style.js';

/**
 * The one vocabulary of tones, for every trace faultlab prints — the Runner's, a lab's, the HTML page's (which
 * turns them into CSS classes): ok/bad/warn and their strong forms, the database (db), a change of state (fault:
 * a fault firing, a breaker transition), the other client (other), and the runner's own labels.
 */
export type Tone = 'plain' | 'dim' | 'ok' | 'okStrong' | 'bad' | 'badStrong' | 'warn' | 'db' | 'fault' | 'other' | 'prepared' | 'attempt';

/** One line of plain words and its tone. */
export interface EventLine {
  tone: Tone;
  text: string;
}

export function paint(style: Style, tone: Tone, text: string): string {
  const { c } = style;
  switch (tone) {
    case 'plain':
      return text;
    case 'dim':
      return c.dim(text);
    case 'ok':
      return c.green(text);
    case 'okStrong':
      return c.green.bold(text);
    case 'bad':
      return c.red(text);
    case 'badStrong':
      return c.red.bold(text);
    case 'warn':
      return c.yellow(text);
    case 'db':
      return c.cyan(text);
    case 'fault':
      return c.magenta.bold(text);
    case 'other':
      return c.magenta(text);
    case 'prepared':
      return c.cyan(text);
    case 'attempt':
      return c.blue(text);
  }
}

/** A virtual time or a duration as the traces print it: whole milliseconds, `3600000ms`. */
export function formatMs(ms: number): string {
  return `${ms}ms`;
}
