import type { Clock } from '../../core/clock.js';
import { get, run, SqliteSql, statement, type Sql, type SqlConnection } from '../../core/sql.js';
import type { BreakerConfig } from '../config/types.js';
import { CircuitOpenError } from '../errors.js';
import { ignoreEvents, type BreakerState, type DurabilityEvent, type EventSink, type StateTransition } from '../events.js';
import { runNow, storeConnection, transactionOn, type StoreDb, type Transaction } from '../store.js';
import { validateBreakerConfig } from './config.js';
import { admit, closedAfresh, failureRate, INITIAL_SNAPSHOT, report, settle, type AdmitDecision, type BreakerSnapshot, type Probe, type ReportDecision } from './machine.js';

/**
 * Closing the flooded route for one dependency. Invariant: the persisted row is the breaker — state,
 * window, open time, probes in flight with their tickets, the ticket sequence — and every decision is a
 * read-modify-write of that row in one transaction. Commit point: the UPDATE of `breaker_state` for this
 * dependency; only after it commits are events emitted and transition subscribers called, so a crash
 * never leaves a reported transition that did not happen, and a reopened breaker resumes exactly where
 * the last commit left it — tickets included, so none is ever issued twice.
 *
 * Reading is not deciding: state() and snapshot() say what a call made now would meet (an open breaker
 * past its reset timeout reads half_open; a probe past its timeout reads re-armed) and write nothing.
 * The transition itself is made, persisted and announced by the next beforeCall.
 *
 * On either database (src/durability/store.ts): each decision's transaction is written once as a generator
 * (`…Ops`), which the plain method runs at once on SQLite; on PostgreSQL the harness runs `…Ops` through
 * `connection`, and the table is the run's schema's.
 */

/**
 * An admitted call carries its ticket (unique for this breaker, from a persisted sequence): report it back
 * with afterCall(success, ticket) so the result counts for that very call and no other (see machine.ts).
 */
export type Admission = { admitted: true; probe: boolean; ticket: number } | { admitted: false; error: CircuitOpenError };

export type TransitionListener = (transition: StateTransition) => void;

export interface CircuitBreakerOptions {
  /** A better-sqlite3 database (the table is made there if missing), or either database's connection (src/core/sql.ts). */
  db: StoreDb;
  clock: Clock;
  config: BreakerConfig;
  events?: EventSink;
}

interface Row {
  state: BreakerState;
  window_json: string;
  opened_at_ms: number | null;
  probes_json: string;
  probe_successes: number;
  next_ticket: number;
  closed_since_ticket: number;
}

const BREAKER_SCHEMA = `
  CREATE TABLE IF NOT EXISTS breaker_state (
    dependency TEXT PRIMARY KEY,
    state TEXT NOT NULL CHECK (state IN ('closed', 'open', 'half_open')),
    window_json TEXT NOT NULL,
    opened_at_ms INTEGER,
    probes_json TEXT NOT NULL,
    probe_successes INTEGER NOT NULL,
    next_ticket INTEGER NOT NULL,
    closed_since_ticket INTEGER NOT NULL
  );`;

/** The breaker's statements, per dialect (the PostgreSQL table: PILLARS_SCHEMA_PG, src/durability/store.ts). */
const SQL = {
  row: statement<[string], Row>('breaker.row', { sqlite: 'SELECT * FROM breaker_state WHERE dependency = ?', postgres: 'SELECT * FROM breaker_state WHERE dependency = $1' }),
  save: statement<[string, BreakerState, string, number | null, string, number, number, number]>('breaker.save', {
    sqlite: `INSERT INTO breaker_state (dependency, state, window_json, opened_at_ms, probes_json, probe_successes, next_ticket, closed_since_ticket)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (dependency) DO UPDATE SET state = excluded.state, window_json = excluded.window_json, opened_at_ms = excluded.opened_at_ms,
               probes_json = excluded.probes_json, probe_successes = excluded.probe_successes, next_ticket = excluded.next_ticket, closed_since_ticket = excluded.closed_since_ticket`,
    postgres: `INSERT INTO breaker_state (dependency, state, window_json, opened_at_ms, probes_json, probe_successes, next_ticket, closed_since_ticket)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
               ON CONFLICT (dependency) DO UPDATE SET state = excluded.state, window_json = excluded.window_json, opened_at_ms = excluded.opened_at_ms,
                 probes_json = excluded.probes_json, probe_successes = excluded.probe_successes, next_ticket = excluded.next_ticket, closed_since_ticket = excluded.closed_since_ticket`,
  }),
};

export class CircuitBreaker {
  /** The connection the breaker's transactions run on. */
  readonly connection: SqlConnection;
  readonly #transaction: Transaction;
  readonly #clock: Clock;
  readonly #emit: EventSink;
  readonly #listeners = new Set<TransitionListener>();
  #config: BreakerConfig;

  constructor(options: CircuitBreakerOptions) {
    this.connection = storeConnection(options.db);
    this.#transaction = transactionOn(this.connection);
    this.#clock = options.clock;
    this.#emit = options.events ?? ignoreEvents;
    this.#config = validateBreakerConfig(options.config);
    if (this.connection instanceof SqliteSql) this.connection.db.exec(BREAKER_SCHEMA);
  }

  get dependency(): string {
    return this.#config.dependency;
  }

  get config(): Readonly<BreakerConfig> {
    return this.#config;
  }

  /** Validate and swap the thresholds; the runtime state (state, window, probes) is kept. */
  updateConfig(config: BreakerConfig): void {
    const valid = validateBreakerConfig(config);
    if (valid.dependency !== this.#config.dependency) throw new Error(`updateConfig: ${valid.dependency} is not ${this.#config.dependency}`);
    this.#config = valid;
  }

  onTransition(listener: TransitionListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The breaker as a call made now would meet it (time applied, nothing written): see the file header. */
  snapshot(): BreakerSnapshot {
    return runNow(this.connection, this.snapshotOps());
  }

  *snapshotOps(): Sql<BreakerSnapshot> {
    return settle(yield* this.#stored(), this.#config, this.#clock.nowMs()).view;
  }

  /** closed, open, or half_open — as a call made now would meet it; reading writes nothing. */
  state(): BreakerState {
    return this.snapshot().state;
  }

  /** Ask before calling the dependency. A refusal means the call never reached it. */
  beforeCall(): Admission {
    return runNow(this.connection, this.beforeCallOps());
  }

  *beforeCallOps(): Sql<Admission> {
    const now = this.#clock.nowMs();
    const decision = yield* this.#transaction(this.#admitBody(now));
    const events: DurabilityEvent[] = rearmEvents(decision.rearmed, this.dependency, now);
    if (decision.transition) events.push({ type: 'breaker.transition', ...decision.transition });
    if (!decision.admitted) {
      events.push({ type: 'breaker.rejected', atMs: now, dependency: this.dependency, state: decision.state, retryAfterMs: decision.retryAfterMs });
      this.#publish(events, decision.transition);
      return { admitted: false, error: new CircuitOpenError(this.dependency, decision.state, decision.retryAfterMs) };
    }
    if (decision.probe) {
      events.push({
        type: 'breaker.probe_admitted',
        atMs: now,
        dependency: this.dependency,
        ticket: decision.ticket,
        inFlight: decision.next.probes.length,
        slots: this.#config.probeSuccessRequired,
      });
    }
    this.#publish(events, decision.transition);
    return { admitted: true, probe: decision.probe, ticket: decision.ticket };
  }

  /**
   * Report how an admitted call went. With its ticket, the report counts only for that call (a re-armed,
   * already reported or unknown ticket is ignored); without one, Closed takes it into the window and
   * HalfOpen gives it to the oldest live probe. Returns false when the report was ignored.
   */
  afterCall(success: boolean, ticket?: number): boolean {
    return runNow(this.connection, this.afterCallOps(success, ticket));
  }

  *afterCallOps(success: boolean, ticket?: number): Sql<boolean> {
    const now = this.#clock.nowMs();
    const { before, decision } = yield* this.#transaction(this.#reportBody(now, success, ticket));
    const events: DurabilityEvent[] = rearmEvents(decision.rearmed, this.dependency, now);
    if (decision.ignored) {
      events.push({
        type: 'breaker.report_ignored',
        atMs: now,
        dependency: this.dependency,
        state: settle(before, this.#config, now).view.state,
        success,
        ...(ticket === undefined ? {} : { ticket }),
        reason: decision.reason,
      });
    } else {
      const window = before.state === 'closed' ? decision.next.window : before.window;
      events.push({
        type: 'breaker.result',
        atMs: now,
        dependency: this.dependency,
        success,
        state: before.state,
        failureRate: failureRate(window),
        windowLength: window.length,
      });
      if (decision.transition) events.push({ type: 'breaker.transition', ...decision.transition });
    }
    this.#publish(events, decision.transition);
    return !decision.ignored;
  }

  /** An operator's override: close now, with an empty window. Fires a transition like any other (ours). */
  forceClose(): void {
    runNow(this.connection, this.forceCloseOps());
  }

  *forceCloseOps(): Sql<void> {
    const now = this.#clock.nowMs();
    const before = yield* this.#transaction(this.#closeBody());
    if (before.state === 'closed') return;
    const transition: StateTransition = {
      dependency: this.dependency,
      from: before.state,
      to: 'closed',
      requestCount: before.window.length,
      reason: 'forced',
      atMs: now,
    };
    this.#publish([{ type: 'breaker.transition', ...transition }], transition);
  }

  *#admitBody(now: number): Sql<AdmitDecision> {
    const d = admit(yield* this.#stored(), this.#config, now);
    yield* this.#save(d.next);
    return d;
  }

  *#reportBody(now: number, success: boolean, ticket: number | undefined): Sql<{ before: BreakerSnapshot; decision: ReportDecision }> {
    const snapshot = yield* this.#stored();
    const d = report(snapshot, this.#config, now, success, ticket);
    if (!d.ignored) yield* this.#save(d.next);
    return { before: snapshot, decision: d };
  }

  *#closeBody(): Sql<BreakerSnapshot> {
    const snapshot = yield* this.#stored();
    if (snapshot.state !== 'closed') yield* this.#save(closedAfresh(snapshot));
    return snapshot;
  }

  /** The row as committed (no time applied): what every decision starts from. */
  *#stored(): Sql<BreakerSnapshot> {
    const row = yield* get(SQL.row, this.dependency);
    if (!row) return { ...INITIAL_SNAPSHOT, window: [], probes: [] };
    return {
      state: row.state,
      window: JSON.parse(row.window_json) as boolean[],
      openedAtMs: row.opened_at_ms,
      probes: JSON.parse(row.probes_json) as Probe[],
      probeSuccesses: row.probe_successes,
      nextTicket: row.next_ticket,
      closedSinceTicket: row.closed_since_ticket,
    };
  }

  *#save(s: BreakerSnapshot): Sql<void> {
    yield* run(SQL.save, this.dependency, s.state, JSON.stringify(s.window), s.openedAtMs, JSON.stringify(s.probes), s.probeSuccesses, s.nextTicket, s.closedSinceTicket);
  }

  #publish(events: DurabilityEvent[], transition: StateTransition | undefined): void {
    for (const event of events) this.#emit(event);
    if (transition) for (const listener of this.#listeners) listener(transition);
  }
}

function rearmEvents(rearmed: Probe[], dependency: string, atMs: number): DurabilityEvent[] {
  return rearmed.map(({ ticket, startedAtMs }) => ({ type: 'breaker.probe_rearmed', atMs, dependency, ticket, startedAtMs }) as const);
}
