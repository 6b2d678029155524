// The naive floor of issue 13: what one correct run costs SQLite at the least, written the obvious way.
// A fresh in-memory database, the tool's and the event log's tables (one exec), the stock and docs of
// the 17 scenarios, and the 11 statements a minimal correct happy path needs: three reads (search_docs,
// read_doc, get_stock), the reserve transaction (BEGIN, ledger lookup, stock read, UPDATE, INSERT the
// receipt, COMMIT) and two event-log inserts (the reserve's intent before the call, its outcome after).
// Each statement is prepared once; then the database is closed. No faults, no trace, no checks: exploring
// a schedule does all of this and more, so a schedule within a small multiple of this is near SQLite's speed.
// Plain JavaScript so that a worker thread could load it without a TypeScript loader.
import Database from 'better-sqlite3';

const SCHEMA = `
CREATE TABLE items(item_id TEXT PRIMARY KEY, available INTEGER NOT NULL, version INTEGER NOT NULL);
CREATE TABLE ledger(key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, task_id TEXT NOT NULL, item_id TEXT NOT NULL,
                    qty INTEGER NOT NULL, result TEXT NOT NULL, created_at_ms INTEGER NOT NULL);
CREATE TABLE docs(doc_id TEXT PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE events(seq INTEGER PRIMARY KEY, label TEXT NOT NULL, state TEXT NOT NULL);
INSERT INTO items VALUES ('camera', 3, 0), ('tripod', 2, 0);
INSERT INTO docs VALUES
  ('camera-care', 'Camera care', 'Carry the camera by its strap and return it charged.'),
  ('reservation-rules', 'Reservation rules', 'Check the stock of a camera before you reserve it.'),
  ('tripod-guide', 'Tripod guide', 'Fold the legs before you carry a tripod.');
`;

export const NAIVE_STATEMENTS = 11;

/** One naive run; returns the statements it ran (after the schema). */
export function naiveRun() {
  const db = new Database(':memory:');
  db.exec(SCHEMA);
  const docs = db.prepare("SELECT doc_id FROM docs WHERE title LIKE @p OR body LIKE @p ORDER BY doc_id").all({ p: '%camera%' });
  db.prepare('SELECT doc_id, title, body FROM docs WHERE doc_id = ?').get(docs[0].doc_id);
  const stock = db.prepare('SELECT available, version FROM items WHERE item_id = ?').get('camera');
  const key = 'happy_path:reserve:0123456789abcdef0123456789abcdef';
  db.prepare('INSERT INTO events(label, state) VALUES (?, ?)').run('attempt_started', JSON.stringify({ pending: key }));
  db.prepare('BEGIN IMMEDIATE').run();
  db.prepare('SELECT fingerprint, result FROM ledger WHERE key = ?').get(key);
  const item = db.prepare('SELECT available, version FROM items WHERE item_id = ?').get('camera');
  db.prepare('UPDATE items SET available = available - ?, version = version + 1 WHERE item_id = ?').run(1, 'camera');
  const receipt = JSON.stringify({ available_after: item.available - 1, item: 'camera', qty: 1, version_after: stock.version + 1 });
  db.prepare('INSERT INTO ledger VALUES (?, ?, ?, ?, ?, ?, ?)').run(key, 'fingerprint', 'happy_path', 'camera', 1, receipt, 0);
  db.prepare('COMMIT').run();
  db.prepare('INSERT INTO events(label, state) VALUES (?, ?)').run('observed', receipt);
  db.close();
  return NAIVE_STATEMENTS;
}

export function naiveRuns(n) {
  for (let i = 0; i < n; i += 1) naiveRun();
}
