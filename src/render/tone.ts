/**
 * What a line of a trace means, in one word, and how each meaning looks. Describers (pure) pick a tone;
 * only `paint` turns it into colour, through the Style the CLI chose once — so plain text stays plain.
 */
import type { Style } from './style.js';

export type Tone = 'plain' | 'dim' | 'good' | 'bad' | 'warn' | 'state' | 'step';

/** One line of plain English and its tone. */
export interface EventLine {
  tone: Tone;
  text: string;
}

export function paint(style: Style, tone: Tone, text: string): string {
  const { c } = style;
  switch (tone) {
    case 'dim':
      return c.dim(text);
    case 'good':
      return c.green(text);
    case 'bad':
      return c.red(text);
    case 'warn':
      return c.yellow(text);
    case 'state':
      return c.magenta.bold(text);
    case 'step':
      return c.cyan(text);
    case 'plain':
      return text;
  }
}

/** A virtual time or a duration as the traces print it: whole milliseconds, `3600000ms`. */
export function formatMs(ms: number): string {
  return `${ms}ms`;
}
