/** A crash is real: both connections close, only committed data survives, and the next connections see exactly that. */
import { describe, expect, it } from 'vitest';
import { FileStorage, MemoryStorage, type Storage } from '../../src/core/storage.js';

describe.each([
  ['file', () => new FileStorage()],
  ['memory', () => new MemoryStorage()],
] as const)('%s storage', (_kind, open: () => Storage) => {
  it('keeps what was committed and loses the open transaction on a crash', () => {
    const storage = open();
    const tool = storage.toolDb;
    tool.exec('CREATE TABLE t(n INTEGER); INSERT INTO t VALUES (1);');
    storage.eventsDb.exec('CREATE TABLE e(n INTEGER); INSERT INTO e VALUES (7);');
    tool.exec('BEGIN IMMEDIATE; INSERT INTO t VALUES (2);');
    expect(tool.prepare('SELECT count(*) FROM t').pluck().get()).toBe(2);

    storage.crash();
    expect(tool.open).toBe(false); // the old connection is really gone
    expect(() => tool.prepare('SELECT 1')).toThrow(/not open/);

    storage.reopen();
    expect(storage.toolDb).not.toBe(tool);
    expect(storage.toolDb.prepare('SELECT n FROM t').pluck().all()).toEqual([1]);
    expect(storage.eventsDb.prepare('SELECT n FROM e').pluck().all()).toEqual([7]);
    storage.dispose();
  });
});

describe('kept databases', () => {
  it('memory storage writes the committed images to the kept folder, as SQLite files a reader can open', async () => {
    const { mkdtempSync, readdirSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const Database = (await import('better-sqlite3')).default;
    const keepDir = mkdtempSync(join(tmpdir(), 'faultlab-kept-'));
    const storage = new MemoryStorage({ keepDir });
    storage.toolDb.exec('CREATE TABLE t(n INTEGER); INSERT INTO t VALUES (1);');
    storage.eventsDb.exec('CREATE TABLE e(n INTEGER); INSERT INTO e VALUES (7);');
    storage.toolDb.exec('BEGIN IMMEDIATE; INSERT INTO t VALUES (2);'); // never committed: not kept
    storage.dispose();
    expect(readdirSync(keepDir).sort()).toEqual(['events.db', 'tool.db']);
    const tool = new Database(join(keepDir, 'tool.db'), { readonly: true });
    expect(tool.prepare('SELECT n FROM t').pluck().all()).toEqual([1]);
    const events = new Database(join(keepDir, 'events.db'), { readonly: true });
    expect(events.prepare('SELECT n FROM e').pluck().all()).toEqual([7]);
    tool.close();
    events.close();
    rmSync(keepDir, { recursive: true });
  });
});
