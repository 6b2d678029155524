// The own-statement floor of the benchmark: replay a recorded exploration (record.ts) straight on
// better-sqlite3, with no simulator in between — the same statements with the same parameters on the same
// connections, opened, crashed (rolled back, serialised, closed) and reopened on their images as they were.
// Every distinct SQL text is prepared once per connection: the best a hand-written program could do with
// exactly faultlab's statements. Plain JavaScript so that a worker thread could load it without a TypeScript loader.
import Database from 'better-sqlite3';

export function replay(ops) {
  const dbs = new Map();
  const statements = new Map();
  const images = new Map();
  const prepared = (db, sql, raw) => {
    const connection = dbs.get(db);
    let cache = statements.get(connection);
    if (cache === undefined) statements.set(connection, (cache = new Map()));
    const key = raw ? `raw ${sql}` : sql;
    let statement = cache.get(key);
    if (statement === undefined) {
      statement = connection.prepare(sql);
      if (raw) statement.raw();
      cache.set(key, statement);
    }
    return statement;
  };
  for (const op of ops) {
    switch (op.op) {
      case 'run-start':
        break;
      case 'open':
        dbs.set(op.db, new Database(':memory:'));
        break;
      case 'exec':
        dbs.get(op.db).exec(op.sql);
        break;
      case 'run':
      case 'get':
      case 'all':
        try {
          prepared(op.db, op.sql, op.raw)[op.op](...op.args);
        } catch (error) {
          if (!op.throws) throw error;
        }
        break;
      case 'crash':
        for (const id of op.dbs) {
          const db = dbs.get(id);
          if (db.inTransaction) db.exec('ROLLBACK');
          images.set(id, db.serialize());
          db.close();
        }
        break;
      case 'reopen':
        op.dbs.forEach((id, i) => dbs.set(id, new Database(images.get(op.from[i]))));
        break;
      case 'close':
        dbs.get(op.db).close();
        break;
      default:
        throw new Error(`unknown op ${op.op}`);
    }
  }
  for (const db of dbs.values()) if (db.open) db.close();
}
