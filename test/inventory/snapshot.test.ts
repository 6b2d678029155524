/** The harness's view of the tool's database is read again exactly when SQLite says a row changed. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCS, DEFAULT_ITEMS } from '../../src/core/defaults.js';
import { createToolDatabase } from '../../src/inventory/schema.js';
import { WatchedSnapshot } from '../../src/inventory/snapshot.js';
import type { Inventory } from '../../src/scenario/types.js';

const open = () => {
  const db = new Database(':memory:');
  createToolDatabase(db, { items: structuredClone(DEFAULT_ITEMS), docs: [...DEFAULT_DOCS] } as unknown as Inventory);
  return db;
};

describe('a watched snapshot', () => {
  it('is the same snapshot while nothing changed, and a new one as soon as a row did', () => {
    const db = open();
    const watched = new WatchedSnapshot(db);
    const first = watched.readNow();
    db.prepare("SELECT * FROM docs").all(); // reads change nothing
    expect(watched.readNow()).toBe(first);
    db.exec("UPDATE items SET available = 2, version = 1 WHERE item_id = 'camera'");
    const second = watched.readNow();
    expect(second).not.toBe(first);
    expect(second.items.find((row) => row.item_id === 'camera')).toEqual({ item_id: 'camera', available: 2, version: 1 });
  });

  it('never keeps what a transaction showed before it was rolled back', () => {
    const db = open();
    const watched = new WatchedSnapshot(db);
    db.exec("BEGIN; UPDATE items SET available = 0 WHERE item_id = 'camera'");
    expect(watched.readNow().items.find((row) => row.item_id === 'camera')!.available).toBe(0); // inside the transaction
    db.exec('ROLLBACK');
    expect(watched.readNow().items.find((row) => row.item_id === 'camera')!.available).toBe(3);
  });
});
