/** A checkpoint's rows restore a database exactly: what a fresh one holds, and what a run left, row for row. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCS, DEFAULT_ITEMS } from '../../src/core/defaults.js';
import { readToolRows, startingToolRows, writeToolRows, type ToolRows } from '../../src/inventory/rows.js';
import { createToolDatabase, TOOL_SCHEMA } from '../../src/inventory/schema.js';
import type { Inventory } from '../../src/scenario/types.js';

const inventory = { items: structuredClone(DEFAULT_ITEMS), docs: [...DEFAULT_DOCS] } as unknown as Inventory;
const receipt = (rowid: number, key: string) => [rowid, key, 'f', 'task', 'camera', 1, '{"qty":1}', 7];
const empty = () => {
  const db = new Database(':memory:');
  db.exec(TOOL_SCHEMA);
  return db;
};

describe('the tool tables as rows', () => {
  it('start as createToolDatabase writes them: the items, then the docs, in order, rowids from 1, no receipt', () => {
    const db = new Database(':memory:');
    createToolDatabase(db, inventory);
    expect(readToolRows(db)).toEqual(startingToolRows(inventory));
    expect(startingToolRows(inventory).items[0]).toEqual([1, 'camera', 3, 0]);
  });

  it('written over anything, hold exactly the rows given, rowids included', () => {
    const db = empty();
    const after: ToolRows = { ...startingToolRows(inventory), items: [[1, 'camera', 1, 2], [2, 'tripod', 2, 0]], ledger: [receipt(1, 'a'), receipt(2, 'b')] };
    writeToolRows(db, after);
    expect(readToolRows(db)).toEqual(after);
    writeToolRows(db, startingToolRows(inventory));
    expect(readToolRows(db)).toEqual(startingToolRows(inventory));
    // The next receipt takes the rowid a fresh database would give it.
    db.prepare("INSERT INTO ledger(key, fingerprint, task_id, item_id, qty, result, created_at_ms) VALUES ('c', 'f', 't', 'camera', 1, '{}', 0)").run();
    expect(readToolRows(db).ledger.map((row) => row[0])).toEqual([1]);
  });

  it('keep the receipts and docs a connection already holds, and give the same rows as writing them all', () => {
    const held: ToolRows = { ...startingToolRows(inventory), ledger: [receipt(1, 'a')] };
    const target: ToolRows = { ...startingToolRows(inventory), items: [[1, 'camera', 1, 2], [2, 'tripod', 2, 0]], ledger: [receipt(1, 'a'), receipt(2, 'b')] };
    const db = empty();
    writeToolRows(db, held);
    db.prepare("INSERT INTO ledger(rowid, key, fingerprint, task_id, item_id, qty, result, created_at_ms) VALUES (2, 'left over', 'f', 't', 'camera', 1, '{}', 0)").run();
    writeToolRows(db, target, held);
    expect(readToolRows(db)).toEqual(target);
  });
});
