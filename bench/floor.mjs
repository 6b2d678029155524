// The floor of the benchmark: replay a recorded statement mix straight on better-sqlite3, with no simulator
// in between. Each run is the list of what the simulator asked SQLite to do, in order: open the two
// in-memory databases, exec, run/get/all a statement with its parameters, crash (roll back what was not
// committed, serialise the committed image, close), reopen from the images, dispose. Every distinct SQL
// text is prepared once per connection — the best a hand-written program could do with these statements.
// Plain JavaScript so that a worker thread can load it without a TypeScript loader.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export function replayRuns(runs) {
  for (const ops of runs) replayRun(ops);
}

function replayRun(ops) {
  const db = { tool: null, events: null };
  const statements = new Map();
  const prepared = (role, sql) => {
    let cache = statements.get(db[role]);
    if (cache === undefined) statements.set(db[role], (cache = new Map()));
    let statement = cache.get(sql);
    if (statement === undefined) cache.set(sql, (statement = db[role].prepare(sql)));
    return statement;
  };
  let images = null;
  for (const op of ops) {
    switch (op.op) {
      case 'open':
        db.tool = new Database(':memory:');
        db.events = new Database(':memory:');
        break;
      case 'exec':
        db[op.role].exec(op.sql);
        break;
      case 'run':
      case 'get':
      case 'all':
        try {
          prepared(op.role, op.sql)[op.op](...op.args);
        } catch (error) {
          if (!op.throws) throw error;
        }
        break;
      case 'crash':
        images = {};
        for (const role of ['tool', 'events']) {
          if (db[role].inTransaction) db[role].exec('ROLLBACK');
          images[role] = db[role].serialize();
          db[role].close();
        }
        break;
      case 'reopen':
        db.tool = new Database(images.tool);
        db.events = new Database(images.events);
        break;
      case 'dispose':
        db.tool.close();
        db.events.close();
        break;
      default:
        throw new Error(`unknown op ${op.op}`);
    }
  }
}

// As a worker thread: replay the runs it was given, then say how long that took.
if (parentPort !== null && workerData?.runs) {
  const started = performance.now();
  replayRuns(workerData.runs);
  parentPort.postMessage(performance.now() - started);
}
