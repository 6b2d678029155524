/**
 * Why faultlab could not give a PostgreSQL: typed, with a stable code, said in the current language. Both are
 * the environment, not a bug: the CLI reports them as bad input (exit 2), with what to do instead.
 */
import { t } from '../core/i18n/index.js';

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

  constructor(reason: UnavailableReason, cause?: unknown) {
    const why =
      reason.kind === 'platform'
        ? t('postgres.reason.platform', { platform: reason.platform })
        : reason.kind === 'notInstalled'
          ? t('postgres.reason.notInstalled', { detail: reason.detail })
          : t('postgres.reason.notHydrated', { file: reason.file });
    super(t('postgres.unavailable', { reason: why }), cause === undefined ? undefined : { cause });
    this.reason = reason;
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

  constructor(failure: StartFailure, log = '', cause?: unknown) {
    const what =
      failure.kind === 'initdb'
        ? t('postgres.initdbFailed', { status: failure.status })
        : failure.kind === 'exited'
          ? t('postgres.serverExited', { status: failure.status })
          : failure.kind === 'limit'
            ? t('postgres.startLimit', { seconds: failure.seconds })
            : failure.kind === 'refused'
              ? t('postgres.refused', { message: failure.message })
              : t('postgres.unreachable', { uid: failure.uid, folder: failure.folder });
    const lines = log.trim() === '' ? '' : t('postgres.logTail', { lines: log.trimEnd().split('\n').map((line) => `    ${line}`).join('\n') });
    super(t('postgres.startFailed', { what, log: lines }), cause === undefined ? undefined : { cause });
    this.failure = failure;
    this.log = log;
  }
}
