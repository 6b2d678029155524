/**
 * The runner's event log (SPEC §2): append-only, one row per `save(state, label)`.
 *
 * Guarantee: after `save` returns, the state it was given is durable. Each INSERT commits on its own
 * (autocommit) — or, with a hook, in one transaction with what the hook writes; that commit is the commit
 * point. Rebuilding reads the last row, so recovery is the same however many times it runs. The log is a separate database from the tool's: the tool commits first,
 * then the runner saves what it observed — that gap is the lesson.
 */
import type Database from 'better-sqlite3';
import { canonicalJson } from '../core/canonical.js';
import type { RunnerState } from './state.js';

export const EVENT_SCHEMA = 'CREATE TABLE events(seq INTEGER PRIMARY KEY, label TEXT NOT NULL, state TEXT NOT NULL);';

export interface LoggedEvent {
  seq: number;
  label: string;
  state: RunnerState;
}

/** Told of every committed event; the harness uses it for the trace and for `crash_after_event`. */
export type SavedListener = (event: LoggedEvent) => void;

/**
 * Runs inside the transaction that saves an event, so what it writes commits (or not) with the event —
 * the dead-letter queue's seam: an exhausted intent is recorded in the same transaction as the final event.
 */
export type SaveHook = (event: LoggedEvent) => void;

export class EventStore {
  readonly #db: Database.Database;
  readonly #insert;
  readonly #onSaved: SavedListener | undefined;
  readonly #inTransaction: SaveHook | undefined;
  /** Prepared on first use, once per connection (recovery reads the last event, the end of a run reads all). */
  #lastStatement: Database.Statement | undefined;
  #allStatement: Database.Statement | undefined;

  constructor(db: Database.Database, onSaved?: SavedListener, inTransaction?: SaveHook) {
    this.#db = db;
    this.#insert = db.prepare<[string, string]>('INSERT INTO events(label, state) VALUES (?, ?)');
    this.#onSaved = onSaved;
    this.#inTransaction = inTransaction;
  }

  /** Persist the state under a label and return it (so a step can `return this.save(state, label)`). */
  save<S extends RunnerState>(state: S, label: string): S {
    const json = canonicalJson(state);
    const hook = this.#inTransaction;
    const event =
      hook === undefined
        ? { seq: Number(this.#insert.run(label, json).lastInsertRowid), label, state: JSON.parse(json) as RunnerState }
        : this.#db.transaction(() => {
            const saved = { seq: Number(this.#insert.run(label, json).lastInsertRowid), label, state: JSON.parse(json) as RunnerState };
            hook(saved);
            return saved;
          })();
    this.#onSaved?.(event);
    return state;
  }

  /** The state as of the last committed event, or null for an empty log: what recovery rebuilds. */
  last(): RunnerState | null {
    return this.lastEvent()?.state ?? null;
  }

  lastEvent(): LoggedEvent | null {
    const row = (this.#lastStatement ??= this.#db.prepare('SELECT seq, label, state FROM events ORDER BY seq DESC LIMIT 1')).get() as
      | { seq: number; label: string; state: string }
      | undefined;
    return row === undefined ? null : { seq: row.seq, label: row.label, state: JSON.parse(row.state) as RunnerState };
  }

  all(): LoggedEvent[] {
    const rows = (this.#allStatement ??= this.#db.prepare('SELECT seq, label, state FROM events ORDER BY seq')).all() as Array<{ seq: number; label: string; state: string }>;
    return rows.map((row) => ({ seq: row.seq, label: row.label, state: JSON.parse(row.state) as RunnerState }));
  }
}
