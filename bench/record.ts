/**
 * Records the statement mix of simulator runs: every exec, every run/get/all of a prepared statement with
 * its parameters, and the connection life cycle of the in-memory storage (open, crash, reopen, dispose).
 * It wraps better-sqlite3's and MemoryStorage's prototypes for the duration of one in-thread exploration;
 * what the storage does inside a crash is recorded as the crash itself (the floor repeats that work).
 */
import Database from 'better-sqlite3';
import { MemoryStorage } from '../dist/src/core/storage.js';

export type Role = 'tool' | 'events';
export type Op =
  | { op: 'open' | 'crash' | 'reopen' | 'dispose' }
  | { op: 'exec'; role: Role; sql: string }
  | { op: 'run' | 'get' | 'all'; role: Role; sql: string; args: unknown[]; throws?: true };

type Method = (...args: unknown[]) => unknown;

export function record<T>(work: () => Promise<T>): Promise<{ result: T; runs: Op[][] }> {
  const runs: Op[][] = [];
  const runOf = new WeakMap<object, Op[]>();
  const roleOf = new WeakMap<object, { ops: Op[]; role: Role }>();
  let inside = 0; // > 0 while the storage itself works (a crash): not recorded op by op
  const restore: Array<() => void> = [];
  const patch = (target: object, name: string, wrap: (original: Method) => Method) => {
    const original = Reflect.get(target, name) as Method;
    Reflect.set(target, name, wrap(original));
    restore.push(() => Reflect.set(target, name, original));
  };

  const storageProto = MemoryStorage.prototype as object;
  const opsOf = (storage: object): Op[] => {
    let ops = runOf.get(storage);
    if (ops === undefined) {
      ops = [{ op: 'open' }];
      runOf.set(storage, ops);
      runs.push(ops);
    }
    return ops;
  };
  for (const role of ['tool', 'events'] as const) {
    const name = role === 'tool' ? 'toolDb' : 'eventsDb';
    const descriptor = Object.getOwnPropertyDescriptor(storageProto, name)!;
    Object.defineProperty(storageProto, name, {
      ...descriptor,
      get(this: object) {
        const db = descriptor.get!.call(this) as object;
        roleOf.set(db, { ops: opsOf(this), role });
        return db;
      },
    });
    restore.push(() => Object.defineProperty(storageProto, name, descriptor));
  }
  for (const op of ['crash', 'reopen', 'dispose'] as const) {
    patch(storageProto, op, (original) =>
      function (this: object, ...args: unknown[]) {
        if (inside === 0) opsOf(this).push({ op });
        inside += 1;
        try {
          return original.apply(this, args);
        } finally {
          inside -= 1;
        }
      },
    );
  }
  patch(Database.prototype, 'exec', (original) =>
    function (this: object, sql: unknown) {
      const owner = roleOf.get(this);
      if (inside === 0 && owner) owner.ops.push({ op: 'exec', role: owner.role, sql: sql as string });
      return original.call(this, sql);
    },
  );
  const probe = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as object;
  probe.close();
  for (const op of ['run', 'get', 'all'] as const) {
    patch(statementProto, op, (original) =>
      function (this: { database: object; source: string }, ...args: unknown[]) {
        const owner = roleOf.get(this.database);
        const entry: Op | null = inside === 0 && owner ? { op, role: owner.role, sql: this.source, args } : null;
        if (entry) owner!.ops.push(entry);
        try {
          return original.apply(this, args);
        } catch (error) {
          if (entry) (entry as { throws?: true }).throws = true;
          throw error;
        }
      },
    );
  }
  return work()
    .then((result) => ({ result, runs }))
    .finally(() => {
      for (const undo of restore.reverse()) undo();
    });
}
