/**
 * Several connections to one PostgreSQL, moved one statement at a time in an order the caller chooses — the
 * primitive that lets a harness show a race as a chosen interleaving instead of a lucky one.
 *
 * `step(session, sql)` sends a statement without awaiting its answer and returns once the statement is done,
 * has failed, or is *waiting on a lock another driven session holds* — seen from a separate connection in
 * `pg_stat_activity` (wait_event_type 'Lock') and `pg_blocking_pids()`, never guessed from a timer. A waiting
 * statement stays in flight; once its blocker moves (a COMMIT, a ROLLBACK), `settle(session)` says how it
 * ended, or that it waits again. Before any statement is sent, every other session is brought to rest (done,
 * failed, or waiting on a driven session), so nothing moves but the statement the caller chose: the same
 * calls give the same outcomes, every time — with one exception the caller must avoid: a COMMIT that frees a
 * row two driven sessions wait on wakes both, and PostgreSQL lets them race for the row's new version (the
 * first waiter drops its tuple lock as it retries), so which then waits on which is the server's choice. Keep
 * at most one session waiting on any one lock.
 *
 * A statement waiting on something outside the driven sessions (autovacuum, a relation's extension lock) is
 * not "waiting" here: it resolves on its own, and the driver keeps looking until it does. Two sessions waiting
 * on each other are PostgreSQL's deadlock: its detector fails one of them (40P01) after `deadlock_timeout`.
 */
import type { Client, QueryResult } from 'pg';

/** How a statement stands when the driver hands control back. */
export type Outcome =
  | { state: 'done'; command: string; rowCount: number | null; rows: Array<Record<string, unknown>> }
  /** PostgreSQL refused it: `code` is the SQLSTATE (23505 a unique violation, 40001 a serialization failure…). */
  | { state: 'failed'; code: string | null; message: string }
  /** It waits on a lock held by these driven sessions; it is still in flight. */
  | { state: 'waiting'; blockedBy: string[] };

/** A statement was sent on a session that still has one in flight, or a session not driven here was named. */
export class DriverMisuseError extends Error {
  override readonly name = 'DriverMisuseError';
  readonly code = 'DRIVER_MISUSE';
}

/** One driven connection: its name in outcomes, its backend's pid. */
export interface Session {
  readonly name: string;
  readonly client: Client;
  /** The server process serving this connection (pg_backend_pid()). */
  readonly pid: number;
}

interface InFlight {
  /** Set when the statement has answered. */
  ended: Outcome | null;
  /** Set when it was seen waiting on a driven session, until something else moves. */
  waiting: Outcome | null;
}

const LOOK = {
  name: 'faultlab_driver_look',
  text: `SELECT wait_event_type, pg_blocking_pids(pid) AS blockers FROM pg_stat_activity WHERE pid = $1`,
};

export class StatementDriver {
  private readonly sessions = new Map<string, Session>();
  private readonly inFlight = new Map<Session, InFlight>();

  /** `observer`: a connection of its own (not driven) that reads pg_stat_activity. */
  constructor(private readonly observer: Client) {}

  /** Drive `client` under `name` (its pid is asked once). */
  async attach(name: string, client: Client): Promise<Session> {
    if (this.sessions.has(name)) throw new DriverMisuseError(`a session named ${name} is already driven`);
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const session: Session = { name, client, pid: rows[0]!.pid };
    this.sessions.set(name, session);
    return session;
  }

  /**
   * Bring every other session to rest, send `sql` on `session`, and return once it is done, failed, or waiting
   * on a driven session's lock.
   */
  async step(session: Session, sql: string, params: readonly unknown[] = []): Promise<Outcome> {
    this.check(session);
    if (this.inFlight.has(session)) throw new DriverMisuseError(`${session.name} still has a statement in flight: settle it first`);
    // The last step may have freed what another was waiting on: look at each again.
    for (const [other, flight] of this.inFlight) {
      flight.waiting = null;
      await this.rest(other);
    }
    const flight: InFlight = { ended: null, waiting: null };
    this.inFlight.set(session, flight);
    session.client.query(sql, params as unknown[]).then(
      (result: QueryResult) => (flight.ended = { state: 'done', command: result.command, rowCount: result.rowCount, rows: result.rows as Array<Record<string, unknown>> }),
      (error: Error & { code?: string }) => (flight.ended = { state: 'failed', code: error.code ?? null, message: error.message }),
    );
    return this.settle(session);
  }

  /** How `session`'s statement stands now: done or failed (and no longer in flight), or still waiting. */
  async settle(session: Session): Promise<Outcome> {
    this.check(session);
    const flight = this.inFlight.get(session);
    if (flight === undefined) throw new DriverMisuseError(`${session.name} has no statement in flight`);
    flight.waiting = null; // a blocker may have moved since: look again
    const outcome = await this.rest(session);
    if (outcome.state !== 'waiting') this.inFlight.delete(session);
    return outcome;
  }

  /** Whether `session` has a statement in flight (one that waited and has not been settled since). */
  pending(session: Session): boolean {
    return this.inFlight.has(session);
  }

  /** Look until the session's statement has ended or waits on a driven session's lock. */
  private async rest(session: Session): Promise<Outcome> {
    const flight = this.inFlight.get(session)!;
    for (;;) {
      if (flight.ended !== null) return flight.ended;
      if (flight.waiting !== null) return flight.waiting;
      const { rows } = await this.observer.query<{ wait_event_type: string | null; blockers: number[] }>({ ...LOOK, values: [session.pid] });
      if (flight.ended !== null) continue; // it answered while we looked
      const row = rows[0];
      if (row?.wait_event_type !== 'Lock') continue;
      const blockedBy = [...this.sessions.values()].filter((other) => row.blockers.includes(other.pid)).map((other) => other.name);
      if (blockedBy.length > 0) return (flight.waiting = { state: 'waiting', blockedBy });
    }
  }

  private check(session: Session): void {
    if (this.sessions.get(session.name) !== session) throw new DriverMisuseError(`${session.name} is not driven here`);
  }
}
