/**
 * Failures of the machine, not of a scenario, a runner or faultlab: a disk with no space left, a temporary folder
 * that cannot be made. Whatever is running when one strikes is stopped and the command exits 2, naming the path —
 * a run is never failed for it, and a learner's runner is never blamed for it.
 */
import { tmpdir } from 'node:os';
import type { CoreCode } from './codes.js';
import { codeText, message, type Said } from './message.js';

/**
 * The machine refused what a command needs; the CLI exits 2 and words what it said (a message; or, once it
 * crossed a thread as data, whatever it said there).
 */
export class EnvironmentError extends Error {
  override name = 'EnvironmentError';
  readonly said: Said;

  constructor(said: Said, options?: ErrorOptions) {
    super(codeText(said), options);
    this.said = said;
  }
}

/** No space left where faultlab writes (SQLite's SQLITE_FULL, ENOSPC, EDQUOT). */
export class DiskFullError extends EnvironmentError {
  override name = 'DiskFullError';
  readonly code = 'DISK_FULL';
  readonly path: string;

  constructor(path: string, cause?: unknown) {
    super(message<CoreCode>('core.diskFull', { path }), { cause });
    this.path = path;
  }
}

/** An error that says the disk (or its quota) is full, from SQLite or the file system. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT';
}

/** The names of the environment's errors, recognised when they cross a thread as data. */
export const ENVIRONMENT_ERRORS: ReadonlySet<string> = new Set(['EnvironmentError', 'DiskFullError', 'TempDirError']);

/** `error` as the environment's failure it is (a raw ENOSPC or SQLITE_FULL wrapped, with its path), or null. */
export function environmental(error: unknown): EnvironmentError | null {
  if (error instanceof EnvironmentError) return error;
  if (isDiskFull(error)) return new DiskFullError((error as { path?: string }).path ?? tmpdir(), error);
  return null;
}
