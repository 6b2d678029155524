/**
 * Records the statement mix of an exploration, to replay it straight on better-sqlite3 (floor.mjs): every
 * exec and every run/get/all of a statement, with its parameters and the connection it ran on, and the
 * connections' lives — opened with a schema (a pair kept between runs), crashed (rolled back, serialised,
 * closed) and reopened on their committed images. It wraps better-sqlite3's, MemoryStorage's and
 * KeptConnections' prototypes for the duration of one in-thread exploration. A run starts where the
 * explorer lends connections to one; what the storage does inside a crash is recorded as the crash itself.
 */
import Database from 'better-sqlite3';
import { MemoryStorage } from '../dist/src/core/storage.js';
import { KeptConnections } from '../dist/src/sim/keptConnections.js';

export type Op =
  | { op: 'run-start' }
  /** A connection opened on an empty database (its first op is the exec of its schema). */
  | { op: 'open'; db: number }
  | { op: 'exec'; db: number; sql: string }
  | { op: 'run' | 'get' | 'all'; db: number; sql: string; args: unknown[]; raw?: true; throws?: true }
  /** A crash: both connections roll back, are serialised and closed ... */
  | { op: 'crash'; dbs: [number, number] }
  /** ... and new ones open on those images. */
  | { op: 'reopen'; from: [number, number]; dbs: [number, number] }
  | { op: 'close'; db: number };

type Method = (...args: unknown[]) => unknown;

export interface Recording {
  ops: Op[];
  /** Runs recorded (one per schedule, and one per scenario as written). */
  runs: number;
  /** Statements (exec, run, get, all) recorded. */
  statements: number;
}

export async function record<T>(work: () => Promise<T>): Promise<{ result: T; recording: Recording }> {
  const ops: Op[] = [];
  const ids = new WeakMap<object, number>();
  let next = 0;
  let runs = 0;
  let inside = 0; // > 0 while the storage itself works (a crash): not recorded op by op
  const idOf = (db: object): number => {
    let id = ids.get(db);
    if (id === undefined) {
      ids.set(db, (id = next++));
      ops.push({ op: 'open', db: id });
    }
    return id;
  };
  const restore: Array<() => void> = [];
  const patch = (target: object, name: string, wrap: (original: Method) => Method) => {
    const original = Reflect.get(target, name) as Method;
    Reflect.set(target, name, wrap(original));
    restore.push(() => Reflect.set(target, name, original));
  };

  patch(KeptConnections.prototype, 'lend', (original) =>
    function (this: object, ...args: unknown[]) {
      ops.push({ op: 'run-start' });
      runs += 1;
      return original.apply(this, args);
    },
  );
  const storageProto = MemoryStorage.prototype as unknown as { toolDb: object; eventsDb: object };
  patch(storageProto, 'crash', (original) =>
    function (this: typeof storageProto, ...args: unknown[]) {
      if (inside === 0 && (this.toolDb as { open: boolean }).open) ops.push({ op: 'crash', dbs: [idOf(this.toolDb), idOf(this.eventsDb)] });
      inside += 1;
      try {
        return original.apply(this, args);
      } finally {
        inside -= 1;
      }
    },
  );
  patch(storageProto, 'reopen', (original) =>
    function (this: typeof storageProto, ...args: unknown[]) {
      const from: [number, number] = [idOf(this.toolDb), idOf(this.eventsDb)];
      inside += 1;
      try {
        return original.apply(this, args);
      } finally {
        inside -= 1;
        // The new connections are known only now: register them without an 'open' of their own.
        const dbs: [number, number] = [next++, next++];
        ids.set(this.toolDb, dbs[0]);
        ids.set(this.eventsDb, dbs[1]);
        ops.push({ op: 'reopen', from, dbs });
      }
    },
  );
  patch(Database.prototype, 'exec', (original) =>
    function (this: object, sql: unknown) {
      if (inside === 0) ops.push({ op: 'exec', db: idOf(this), sql: sql as string });
      return original.call(this, sql);
    },
  );
  patch(Database.prototype, 'close', (original) =>
    function (this: { open: boolean }) {
      if (inside === 0 && this.open) ops.push({ op: 'close', db: idOf(this) });
      return original.call(this);
    },
  );
  const probe = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as object;
  probe.close();
  for (const op of ['run', 'get', 'all'] as const) {
    patch(statementProto, op, (original) =>
      function (this: { database: object; source: string; reader: boolean }, ...args: unknown[]) {
        const entry: Op | null = inside === 0 ? { op, db: idOf(this.database), sql: this.source, args } : null;
        if (entry) ops.push(entry);
        // A raw statement (rows as arrays) is replayed as one: better-sqlite3 builds no objects for it.
        try {
          const result = original.apply(this, args);
          if (entry && op !== 'run' && Array.isArray(op === 'all' ? (result as unknown[])[0] : result)) (entry as { raw?: true }).raw = true;
          return result;
        } catch (error) {
          if (entry) (entry as { throws?: true }).throws = true;
          throw error;
        }
      },
    );
  }
  try {
    const result = await work();
    const statements = ops.filter((o) => o.op === 'exec' || o.op === 'run' || o.op === 'get' || o.op === 'all').length;
    return { result, recording: { ops, runs, statements } };
  } finally {
    for (const undo of restore.reverse()) undo();
  }
}
