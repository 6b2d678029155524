/**
 * The tool's tables as rows, rowid first — the committed content a checkpoint keeps, what a connection kept
 * between runs is restored to (src/sim/keptConnections.ts), and what a snapshot is read from. Restoring
 * deletes rows and inserts the given ones with their rowids, in one transaction: afterwards the tables hold
 * exactly those rows, as a connection opened on an image of them would, and every query names its order.
 */
import type Database from 'better-sqlite3';
import { rows as rowsOf, SqliteSql, statement, type Sql, type Statement } from '../core/sql.js';
import type { Inventory } from '../scenario/types.js';

export type Row = unknown[];

export interface ToolRows {
  items: Row[];
  ledger: Row[];
  docs: Row[];
  /**
   * The limits' tables (schema.ts): read and written only for a scenario past the chapter — for the 17 they stay
   * empty, and reading five empty tables at every pause of every explored schedule was a quarter of its time.
   */
  history?: Row[];
  tombstones?: Row[];
  finished_tasks?: Row[];
  outbox?: Row[];
  charges?: Row[];
}

export type ToolTable = keyof ToolRows;

/** Every column of TOOL_SCHEMA's tables, in its order (schema.ts), and the order rows are read in. */
const TABLES: Record<ToolTable, { columns: readonly string[]; order: string; rowid: string }> = {
  items: { columns: ['item_id', 'available', 'version'], order: 'item_id', rowid: 'rowid' },
  ledger: { columns: ['key', 'fingerprint', 'task_id', 'item_id', 'qty', 'result', 'created_at_ms'], order: 'rowid', rowid: 'rowid' },
  docs: { columns: ['doc_id', 'title', 'body'], order: 'rowid', rowid: 'rowid' },
  history: { columns: ['seq', 'key', 'fingerprint', 'task_id', 'item_id', 'delta', 'at_ms'], order: 'rowid', rowid: 'seq' },
  tombstones: { columns: ['key', 'fingerprint', 'task_id', 'created_at_ms', 'purged_at_ms'], order: 'rowid', rowid: 'rowid' },
  finished_tasks: { columns: ['task_id', 'finished_at_ms'], order: 'rowid', rowid: 'rowid' },
  outbox: { columns: ['id', 'key', 'task_id', 'ref', 'amount', 'created_at_ms', 'attempts', 'outcome', 'sent_at_ms'], order: 'rowid', rowid: 'id' },
  charges: { columns: ['seq', 'charge_id', 'ref', 'amount', 'at_ms'], order: 'rowid', rowid: 'seq' },
};

/**
 * Each table read whole, per dialect. PostgreSQL has no rowid: a table whose SQLite rowid is implicit carries a
 * `rowid` column there (schema.ts); one with an INTEGER PRIMARY KEY (that rowid's alias) is read by that key.
 * Text keys are ordered byte by byte, as SQLite orders them (`COLLATE "C"`).
 */
const READ = Object.fromEntries(
  (Object.keys(TABLES) as ToolTable[]).map((table) => {
    const { columns, order, rowid } = TABLES[table];
    const list = columns.join(', ');
    const pgOrder = order === 'rowid' ? rowid : `${order} COLLATE "C"`;
    return [table, statement(`rows.read.${table}`, { sqlite: `SELECT rowid, ${list} FROM ${table} ORDER BY ${order}`, postgres: `SELECT ${rowid}, ${list} FROM ${table} ORDER BY ${pgOrder}` })];
  }),
) as Record<ToolTable, Statement>;

/** One table's rows, `[rowid, ...columns]`, on either database. */
export function* readToolTableOps(table: ToolTable): Sql<Row[]> {
  return yield* rowsOf(READ[table]);
}
/** The chapter's tables, which the held rows of a kept connection may spare; the limits' are always rewritten. */
const CHAPTER_TABLES: ReadonlySet<ToolTable> = new Set(['items', 'ledger', 'docs']);
const NAMES = Object.keys(TABLES) as ToolTable[];
const CHAPTER_NAMES: readonly ToolTable[] = ['items', 'ledger', 'docs'];

type Operation = 'clear' | 'trim' | 'insert';

const SQL: Record<Exclude<Operation, 'read'>, (table: ToolTable) => string> = {
  clear: (table) => `DELETE FROM ${table}`,
  trim: (table) => `DELETE FROM ${table} WHERE rowid > ?`,
  insert: (table) => `INSERT INTO ${table}(rowid, ${TABLES[table].columns.join(', ')}) VALUES (${['?', ...TABLES[table].columns.map(() => '?')].join(', ')})`,
};

/** Prepared on first use, once per connection (a new connection after a crash prepares only what it uses). */
const prepared = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function statementOn(db: Database.Database, operation: Operation, table: ToolTable): Database.Statement {
  let known = prepared.get(db);
  if (known === undefined) prepared.set(db, (known = new Map()));
  const key = `${operation} ${table}`;
  let found = known.get(key);
  if (found === undefined) {
    found = db.prepare(SQL[operation](table));
    known.set(key, found);
  }
  return found;
}

/** One table's rows, `[rowid, ...columns]`: items by item_id, the ledger and docs by rowid. */
export function readToolTable(db: Database.Database, table: ToolTable): Row[] {
  return SqliteSql.of(db).run(readToolTableOps(table));
}

/** The chapter's tables; with `limits`, the limits' tables too (docs/spec.md §13–§14). */
export function readToolRows(db: Database.Database, limits = false): ToolRows {
  return Object.fromEntries((limits ? NAMES : CHAPTER_NAMES).map((table) => [table, readToolTable(db, table)])) as unknown as ToolRows;
}

/**
 * Make the tables hold exactly `rows`, in one transaction. `held`: what the connection was last restored to,
 * when the only writes since are the real tool's — it appends receipts and updates stock, never touches a
 * doc — so a receipt or doc both hold is left in place and only the rest is deleted and inserted.
 */
export function writeToolRows(db: Database.Database, rows: ToolRows, held: ToolRows | null = null): void {
  db.exec('BEGIN');
  try {
    for (const table of NAMES) {
      if (!CHAPTER_TABLES.has(table)) {
        // Rows given (a scenario past the chapter) or held last time: rewritten whole — a purge deletes receipts and
        // a relay updates its outbox, nothing here is only ever appended. Neither: empty, and left so.
        const given = rows[table];
        if (given === undefined && (held === null || (held[table]?.length ?? 0) === 0)) continue;
        statementOn(db, 'clear', table).run();
        for (const row of given ?? []) statementOn(db, 'insert', table).run(row);
        continue;
      }
      const target = rows[table]!;
      // Stock is updated in place: always rewritten. Receipts and docs: the rows both hold are kept.
      if (table === 'docs' && held !== null && sameRows(held.docs, target)) continue; // docs are never written
      const kept = held === null || table !== 'ledger' ? 0 : commonPrefix(held.ledger, target);
      if (kept === 0) statementOn(db, 'clear', table).run();
      else statementOn(db, 'trim', table).run(target[kept - 1]![0]);
      const insert = target.length > kept ? statementOn(db, 'insert', table) : null;
      for (let i = kept; i < target.length; i += 1) insert!.run(target[i]);
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** How many leading rows two lists have equal, value for value. */
export function commonPrefix(a: readonly Row[], b: readonly Row[]): number {
  let n = 0;
  while (n < a.length && n < b.length && sameRow(a[n]!, b[n]!)) n += 1;
  return n;
}

function sameRows(a: readonly Row[], b: readonly Row[]): boolean {
  return a.length === b.length && commonPrefix(a, b) === a.length;
}

function sameRow(a: Row, b: Row): boolean {
  return a === b || (a.length === b.length && a.every((value, i) => value === b[i]));
}

/** The rows `createToolDatabase` writes for this inventory: its items, then its docs, in order; no receipt. */
export function startingToolRows(inventory: Inventory): ToolRows {
  return {
    items: Object.entries(inventory.items).map(([id, stock], i) => [i + 1, id, stock.available, stock.version]),
    ledger: [],
    docs: inventory.docs.map((doc, i) => [i + 1, doc.doc_id, doc.title, doc.body]),
  };
}
