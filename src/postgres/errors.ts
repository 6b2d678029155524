/**
 * Why faultlab could not give a PostgreSQL: typed, with a stable code, and what went wrong as a message (its
 * code text is the `.message`, for a stack trace) that whoever shows it words. Both are the environment, not
 * a bug: the CLI reports them as bad input (exit 2), with what to do instead.
 */
import { codeText, message, type Message } from '../core/message.js';
import type { PostgresCode } from './codes.js';

/** Why there is no embedded server on this machine; the message says to give a URL instead. */
export type UnavailableReason =
  | { kind: 'platform'; platform: string }
  | { kind: 'notInstalled'; detail: string }
  /** The package is there but its install script did not run: `postgres` cannot load its ICU libraries. */
  | { kind: 'notHydrated'; file: string };

/** No embedded PostgreSQL on this platform or in this install: give faultlab a server by URL. */
export class PostgresUnavailableError extends Error {
  override readonly name = 'PostgresUnavailableError';
  readonly code = 'POSTGRES_UNAVAILABLE';
  readonly reason: UnavailableReason;
  readonly said: Message<PostgresCode>;

  constructor(reason: UnavailableReason, cause?: unknown) {
    const why =
      reason.kind === 'platform'
        ? message<PostgresCode>('postgres.reason.platform', { platform: reason.platform })
        : reason.kind === 'notInstalled'
          ? message<PostgresCode>('postgres.reason.notInstalled', { detail: reason.detail })
          : message<PostgresCode>('postgres.reason.notHydrated', { file: reason.file });
    const said = message<PostgresCode>('postgres.unavailable', { reason: why });
    super(codeText(said), cause === undefined ? undefined : { cause });
    this.reason = reason;
    this.said = said;
  }
}

/** What went wrong while starting the embedded server. */
export type StartFailure =
  | { kind: 'initdb'; status: string }
  | { kind: 'exited'; status: string }
  | { kind: 'limit'; seconds: number }
  | { kind: 'refused'; message: string }
  | { kind: 'unreachable'; uid: number; folder: string };

/** The embedded server was found but did not start; the message carries the end of its log. */
export class PostgresStartError extends Error {
  override readonly name = 'PostgresStartError';
  readonly code = 'POSTGRES_START';
  readonly failure: StartFailure;
  /** The last lines initdb or the server wrote. */
  readonly log: string;
  readonly said: Message<PostgresCode>;

  constructor(failure: StartFailure, log = '', cause?: unknown) {
    const what =
      failure.kind === 'initdb'
        ? message<PostgresCode>('postgres.initdbFailed', { status: failure.status })
        : failure.kind === 'exited'
          ? message<PostgresCode>('postgres.serverExited', { status: failure.status })
          : failure.kind === 'limit'
            ? message<PostgresCode>('postgres.startLimit', { seconds: failure.seconds })
            : failure.kind === 'refused'
              ? message<PostgresCode>('postgres.refused', { message: failure.message })
              : message<PostgresCode>('postgres.unreachable', { uid: failure.uid, folder: failure.folder });
    // The log is PostgreSQL's own text, taken as it is, each line indented under the message's.
    const lines = log.trim() === '' ? '' : message<PostgresCode>('postgres.logTail', { lines: log.trimEnd().split('\n').map((line) => `    ${line}`).join('\n') });
    const said = message<PostgresCode>('postgres.startFailed', { what, log: lines });
    super(codeText(said), cause === undefined ? undefined : { cause });
    this.failure = failure;
    this.log = log;
    this.said = said;
  }
}
