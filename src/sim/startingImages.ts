/**
 * The databases a run starts from, built once and forked for every run instead of built statement by
 * statement each time. Building the tool's tables, stock and docs and the empty event log costs three
 * CREATE TABLEs, a transaction and a row per item and doc (~0.3 ms, most of it SQLite compiling the
 * schema); a new connection on the committed image of the same databases costs a tenth of that.
 *
 * Honest by construction: the image is what a connection committed after `createToolDatabase` and
 * `EVENT_SCHEMA`, and a run opens new connections on it exactly as recovery opens them after a crash
 * (src/core/storage.ts). Each connection gets its own copy of the bytes; the image never changes.
 */
import Database from 'better-sqlite3';
import type { StorageImages } from '../core/storage.js';
import { createToolDatabase } from '../inventory/schema.js';
import { EVENT_SCHEMA } from '../runner/EventStore.js';
import type { Inventory } from '../scenario/types.js';

/** Distinct inventories kept (an exploration has a handful; a long-lived process must not grow without end). */
const KEPT = 64;
const images = new Map<string, StorageImages>();
let emptyLog: Buffer | null = null;

/** The committed images of a fresh run's two databases for this inventory. */
export function startingImages(inventory: Inventory): StorageImages {
  // JSON.stringify, not canonical JSON: two spellings of one inventory only cost a second entry.
  const key = JSON.stringify(inventory);
  let found = images.get(key);
  if (found === undefined) {
    if (images.size >= KEPT) images.clear();
    found = { tool: committed((db) => createToolDatabase(db, inventory)), events: (emptyLog ??= committed((db) => db.exec(EVENT_SCHEMA))) };
    images.set(key, found);
  }
  return found;
}

function committed(build: (db: Database.Database) => void): Buffer {
  const db = new Database(':memory:');
  try {
    build(db);
    return db.serialize();
  } finally {
    db.close();
  }
}
