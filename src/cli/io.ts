/**
 * The CLI's contact with the world: streams, environment, colour. Decided once at start-up and passed
 * down, so that commands (and tests) never read process.* themselves.
 */
import { colorStyle, PLAIN, type Style } from '../render/style.js';

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
  /** The wall clock in ms, for how long a command takes (a class's progress, JUnit's times): performance.now unless a test fixes it. */
  now?: () => number;
}

/**
 * The process's streams, as they are now: their `write` is taken before any runner file is loaded, so
 * what a runner does to process.stdout (see contain.ts) never reaches faultlab's own output. A write that
 * fails at once (stdout on a full disk, /dev/full) becomes an OutputError, reported without a stack.
 */
export function processIo(): Io {
  const writer = (stream: NodeJS.WriteStream, name: 'stdout' | 'stderr'): Out => {
    const write = stream.write.bind(stream);
    return {
      write(text: string) {
        try {
          return write(text);
        } catch (error) {
          throw new OutputError(name, error);
        }
      },
    };
  };
  const isTTY = process.stdout.isTTY === true;
  return {
    stdout: writer(process.stdout, 'stdout'),
    stderr: writer(process.stderr, 'stderr'),
    env: process.env,
    isTTY,
    ...(isTTY && process.stdout.columns > 0 ? { columns: process.stdout.columns } : {}),
    cwd: process.cwd(),
    now: () => performance.now(),
  };
}

/**
 * Colour is on only for a terminal, and never with --no-color, NO_COLOR (any non-empty value, see
 * no-color.org; chalk alone ignores it) or --json. FORCE_COLOR is honoured through chalk's own detection.
 */
export async function chooseStyle(io: Io, flags: { noColor?: boolean; json?: boolean }): Promise<Style> {
  if (flags.noColor === true || flags.json === true || (io.env.NO_COLOR ?? '') !== '') return PLAIN;
  const forced = (io.env.FORCE_COLOR ?? '') !== '' && io.env.FORCE_COLOR !== '0';
  return forced || io.isTTY ? colorStyle() : PLAIN;
}

/**
 * Exit codes are a contract: 0 every check held, 1 a check failed, 2 bad input (a scenario, an option, a
 * path, a runner file, or an environment faultlab cannot work in), 70 a bug in faultlab itself (EX_SOFTWARE),
 * 130 and 143 stopped by SIGINT and SIGTERM (128 + the signal's number, as a shell reports them).
 */
export const EXIT = { ok: 0, failed: 1, badInput: 2, internal: 70, sigint: 130, sigterm: 143 } as const;

/** A bad option: its message, then the command's help. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** Whether the command's help follows the message: not when the message says all there is to say. */
  readonly showHelp: boolean;

  constructor(message: string, options: { showHelp?: boolean } = {}) {
    super(message);
    this.showHelp = options.showHelp ?? true;
  }
}

/** Bad input that is not about how the command was called (a path, a runner file): its message alone. */
export class BadInputError extends Error {
  override readonly name = 'BadInputError';
}

/** Writing faultlab's own output failed: a closed or full stdout. */
export class OutputError extends Error {
  override readonly name = 'OutputError';
  readonly stream: 'stdout' | 'stderr';
  readonly errno: string;

  constructor(stream: 'stdout' | 'stderr', cause: unknown) {
    const errno = (cause as NodeJS.ErrnoException).code ?? 'EIO';
    super(`cannot write to ${stream}: ${errno}`, { cause }); // said to the user in words by report() (errors.ts)
    this.stream = stream;
    this.errno = errno;
  }
}
