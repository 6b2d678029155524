/**
 * The CLI's contact with the world: streams, environment, colour. Decided once at start-up and passed
 * down, so that commands (and tests) never read process.* themselves.
 */
import chalk from 'chalk';
import { makeStyle, type Style } from '../render/style.js';

export interface Out {
  write(text: string): unknown;
}

export interface Io {
  stdout: Out;
  stderr: Out;
  env: Record<string, string | undefined>;
  /** Whether stdout is a terminal (colour is only ever on for a terminal). */
  isTTY: boolean;
  /** The terminal's width in columns, when stdout is one (the only place faultlab reads it). */
  columns?: number;
  cwd: string;
}

export function processIo(): Io {
  const isTTY = process.stdout.isTTY === true;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    isTTY,
    ...(isTTY && process.stdout.columns > 0 ? { columns: process.stdout.columns } : {}),
    cwd: process.cwd(),
  };
}

/**
 * Colour is on only for a terminal, and never with --no-color, NO_COLOR (any non-empty value, see
 * no-color.org; chalk alone ignores it) or --json. FORCE_COLOR is honoured through chalk's own detection.
 */
export function chooseStyle(io: Io, flags: { noColor?: boolean; json?: boolean }): Style {
  const level = (chalk.level > 0 ? chalk.level : 1) as 1 | 2 | 3;
  if (flags.noColor === true || flags.json === true || (io.env.NO_COLOR ?? '') !== '') return makeStyle(false);
  if ((io.env.FORCE_COLOR ?? '') !== '' && io.env.FORCE_COLOR !== '0') return makeStyle(true, level);
  return makeStyle(io.isTTY, level);
}

/** Exit codes are a contract: 0 every check held, 1 a check failed, 2 bad input. */
export const EXIT = { ok: 0, failed: 1, badInput: 2 } as const;

export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** Whether the command's help follows the message: not when the message says all there is to say. */
  readonly showHelp: boolean;

  constructor(message: string, options: { showHelp?: boolean } = {}) {
    super(message);
    this.showHelp = options.showHelp ?? true;
  }
}
