/**
 * The runner's event log (docs/spec.md §2): append-only, one row per `save(state, label)`.
 *
 * Guarantee: once `save` resolves, the state it was given is durable. Each INSERT commits on its own
 * (autocommit) — or, with a hook, in one transaction with what the hook writes; that commit is the commit
 * point. Rebuilding reads the last row, so recovery is the same however many times it runs. The log is a separate database from the tool's: the tool commits first,
 * then the runner saves what it observed — that gap is the lesson.
 */
import type Database from 'better-sqlite3';
import { canonicalRoundTrip, jsonCopy } from '../core/canonical.js';
import { all, begin, commit, abandon, get, hook, insert, SqliteSql, statement, type Sql, type SqlConnection } from '../core/sql.js';
import type { RunnerState } from './state.js';

export const EVENT_SCHEMA = 'CREATE TABLE events(seq INTEGER PRIMARY KEY, label TEXT NOT NULL, state TEXT NOT NULL);';
/** The same table on PostgreSQL: `seq` numbered as SQLite numbers an INTEGER PRIMARY KEY (the INSERT below). */
export const EVENT_SCHEMA_PG = 'CREATE TABLE events(seq bigint PRIMARY KEY, label text NOT NULL, state text NOT NULL);';

/** The log's statements, per dialect (src/inventory/statements.ts says why they differ). */
const SQL = {
  // SQLite numbers the row max(seq) + 1 itself; PostgreSQL is told to, and hands the number back.
  insert: statement<[string, string]>('events.insert', {
    sqlite: 'INSERT INTO events(label, state) VALUES (?, ?)',
    postgres: 'INSERT INTO events(seq, label, state) VALUES ((SELECT coalesce(max(seq), 0) + 1 FROM events), $1, $2) RETURNING seq',
  }),
  last: statement<[], { seq: number; label: string; state: string }>('events.last', { same: 'SELECT seq, label, state FROM events ORDER BY seq DESC LIMIT 1' }),
  all: statement<[], { seq: number; label: string; state: string }>('events.all', { same: 'SELECT seq, label, state FROM events ORDER BY seq' }),
};

/**
 * The log as a runner sees it (its `this.events`). The harness's side is asynchronous — each call is a point
 * where the scheduler may let another actor move; a learner's runner in its box sees the same calls answered
 * at once (`SyncEventLog`).
 */
export interface EventLog {
  save<S extends RunnerState>(state: S, label: string): Promise<S>;
  last(): Promise<RunnerState | null>;
  lastEvent(): Promise<LoggedEvent | null>;
  all(): Promise<LoggedEvent[]>;
}

export interface SyncEventLog {
  save<S extends RunnerState>(state: S, label: string): S;
  last(): RunnerState | null;
  lastEvent(): LoggedEvent | null;
  all(): LoggedEvent[];
}

export interface LoggedEvent {
  seq: number;
  label: string;
  state: RunnerState;
}

/** Told of every committed event, and of its row's JSON; the harness uses it for the trace and for `crash_after_event`. */
export type SavedListener = (event: LoggedEvent, json: string) => void;

/** An event as the harness saw it committed: `all` hands back its state instead of parsing a row it already knows. */
export interface KnownEvent {
  label: string;
  json: string;
  state: RunnerState;
}

/**
 * Runs inside the transaction that saves an event, so what it writes commits (or not) with the event —
 * the dead-letter queue's seam: an exhausted intent is recorded in the same transaction as the final event.
 * At once on SQLite; on PostgreSQL it may be awaited (its statements run on the log's connection, inside the save).
 */
export type SaveHook = (event: LoggedEvent) => void | Promise<void>;

/**
 * Prepared on first use, once per connection — not per store: a new runner after a crash has a new
 * connection anyway, and a connection kept between runs (exploration) keeps its statements too.
 */
interface StoreStatements {
  /** Every row as `[seq, label, state]`, in order: the log read back, and a checkpoint's rows. */
  rows?: Database.Statement;
  trim?: Database.Statement;
  insertRow?: Database.Statement;
}

function statementsOf(db: Database.Database): StoreStatements {
  let sql = storeStatements.get(db);
  if (sql === undefined) storeStatements.set(db, (sql = {}));
  return sql;
}
const storeStatements = new WeakMap<Database.Database, StoreStatements>();

export class EventStore implements EventLog {
  readonly #sql: SqlConnection;
  readonly #onSaved: SavedListener | undefined;
  readonly #inTransaction: SaveHook | undefined;

  /** On a SQLite connection, or either database's (src/core/sql.ts). */
  constructor(db: Database.Database | SqlConnection, onSaved?: SavedListener, inTransaction?: SaveHook) {
    this.#sql = 'dialect' in db ? db : SqliteSql.of(db);
    this.#onSaved = onSaved;
    this.#inTransaction = inTransaction;
  }

  /** Persist the state under a label and resolve to it (so a step can `return this.save(state, label)`). */
  async save<S extends RunnerState>(state: S, label: string): Promise<S> {
    // The row's JSON, and the state as it reads back from it (for the listener), in one pass.
    const { json, copy } = canonicalRoundTrip(state);
    // On SQLite the INSERT answers at once, and no await is added: the turns a runner takes stay as they were.
    const ran = this.#sql.run(this.#saveOps(label, json, copy as RunnerState));
    const event = ran instanceof Promise ? await ran : ran;
    this.#onSaved?.(event, json);
    return state;
  }

  /** The INSERT, alone (autocommit: its commit is the commit point) or with the hook's writes in one transaction. */
  *#saveOps(label: string, json: string, state: RunnerState): Sql<LoggedEvent> {
    const hooked = this.#inTransaction;
    if (hooked === undefined) return { seq: yield* insert(SQL.insert, label, json), label, state };
    yield* begin();
    try {
      const saved = { seq: yield* insert(SQL.insert, label, json), label, state };
      yield* hook(() => hooked(saved));
      yield* commit();
      return saved;
    } catch (error) {
      yield* abandon();
      throw error;
    }
  }

  /** The state as of the last committed event, or null for an empty log: what recovery rebuilds. */
  async last(): Promise<RunnerState | null> {
    return (await this.lastEvent())?.state ?? null;
  }

  /** The last committed event. A row that is exactly an event in `known` is copied from it instead of parsed. */
  async lastEvent(known?: ReadonlyMap<number, KnownEvent>): Promise<LoggedEvent | null> {
    const ran = this.#sql.run(get(SQL.last));
    const row = ran instanceof Promise ? await ran : ran;
    if (row === undefined) return null;
    const seen = known?.get(row.seq);
    const state = seen !== undefined && seen.label === row.label && seen.json === row.state ? jsonCopy(seen.state) : (JSON.parse(row.state) as RunnerState);
    return { seq: row.seq, label: row.label, state };
  }

  /**
   * Every committed event, in order, read from the database. A row whose label and text are exactly those of
   * an event in `known` gets that event's state (parsing the same text again would give an equal one).
   */
  async all(known?: ReadonlyMap<number, KnownEvent>): Promise<LoggedEvent[]> {
    const ran = this.#sql.run(all(SQL.all));
    return (ran instanceof Promise ? await ran : ran).map(({ seq, label, state: text }) => {
      const seen = known?.get(seq);
      const state = seen !== undefined && seen.label === label && seen.json === text ? seen.state : (JSON.parse(text) as RunnerState);
      return { seq, label, state };
    });
  }
}

/** The log as rows `[seq, label, state JSON]`: the committed content a checkpoint keeps (src/sim/checkpoint.ts). */
export type EventRow = [seq: number, label: string, state: string];

export function readEventRows(db: Database.Database): EventRow[] {
  const sql = statementsOf(db);
  return (sql.rows ??= db.prepare('SELECT seq, label, state FROM events ORDER BY seq').raw()).all() as EventRow[];
}

/**
 * Make the log hold exactly `rows`, in one transaction. `kept`: how many leading rows it already holds —
 * events are only ever appended — so only the ones after them are deleted, and the missing ones inserted.
 */
export function writeEventRows(db: Database.Database, rows: readonly EventRow[], kept = 0): void {
  const sql = statementsOf(db);
  db.exec('BEGIN');
  try {
    (sql.trim ??= db.prepare('DELETE FROM events WHERE seq > ?')).run(kept === 0 ? 0 : rows[kept - 1]![0]);
    const insert = rows.length > kept ? (sql.insertRow ??= db.prepare('INSERT INTO events(seq, label, state) VALUES (?, ?, ?)')) : null;
    for (let i = kept; i < rows.length; i += 1) insert!.run(rows[i]);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
