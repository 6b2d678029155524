/**
 * Connections kept between runs: each run gets them holding exactly its starting rows, whatever the run before
 * left; a crash still closes them, and what is kept afterwards are the connections that replaced them.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/core/storage.js';
import { readToolRows } from '../../src/inventory/rows.js';
import { readEventRows } from '../../src/runner/EventStore.js';
import { KeptConnections, mayKeepConnections, startingContent } from '../../src/sim/keptConnections.js';
import { simulate } from '../../src/sim/simulate.js';
import { ReferenceRunner } from '../../src/runner/ReferenceRunner.js';
import { InventoryTool } from '../../src/inventory/InventoryTool.js';
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { byId } from '../explore/helpers.js';

const content = startingContent(byId('happy_path').inventory);

describe('kept connections', () => {
  it('hold exactly the starting rows for every run, whatever the run before committed', async () => {
    const kept = new KeptConnections();
    const first = new MemoryStorage({ lent: kept.lend(content) });
    first.toolDb.exec("UPDATE items SET available = 0, version = 9; INSERT INTO ledger VALUES ('k', 'f', 't', 'camera', 3, '{}', 0)");
    first.eventsDb.exec("INSERT INTO events(label, state) VALUES ('started', '{}')");
    const [tool, events] = [first.toolDb, first.eventsDb];
    first.dispose();
    const second = new MemoryStorage({ lent: kept.lend(content) });
    expect(second.toolDb).toBe(tool); // the same connection, kept ...
    expect(readToolRows(second.toolDb)).toEqual(content.tool); // ... holding the starting rows again
    expect(readEventRows(second.eventsDb)).toEqual([]);
    expect(second.eventsDb).toBe(events);
    second.dispose();
    kept.close();
    expect(tool.open).toBe(false);
  });

  it('are closed by a crash like any connection; the ones kept afterwards are those that replaced them', async () => {
    const kept = new KeptConnections();
    const storage = new MemoryStorage({ lent: kept.lend(content) });
    const lent = storage.toolDb;
    storage.eventsDb.exec("INSERT INTO events(label, state) VALUES ('started', '{}')");
    storage.toolDb.exec("BEGIN IMMEDIATE; UPDATE items SET available = 0 WHERE item_id = 'camera'");
    storage.crash();
    expect(lent.open).toBe(false);
    storage.reopen();
    expect(readToolRows(storage.toolDb)).toEqual(content.tool); // the uncommitted update is lost
    const reopened = storage.toolDb;
    storage.dispose();
    const next = new MemoryStorage({ lent: kept.lend(content) });
    expect(next.toolDb).toBe(reopened);
    expect(readEventRows(next.eventsDb)).toEqual([]); // the committed event of the last run is gone for this one
    next.dispose();
    kept.close();
  });

  it('are not kept when a run ends inside a transaction: closed instead', async () => {
    const kept = new KeptConnections();
    const storage = new MemoryStorage({ lent: kept.lend(content) });
    const tool = storage.toolDb;
    tool.exec('BEGIN');
    storage.dispose();
    expect(tool.open).toBe(false);
    const next = new MemoryStorage({ lent: kept.lend(content) });
    expect(next.toolDb).not.toBe(tool);
    next.dispose();
    kept.close();
  });

  it('are lent only to the reference runner on the real tool, and only for a memory run with nothing to keep', async () => {
    expect(mayKeepConnections(ReferenceRunner, undefined)).toBe(true);
    expect(mayKeepConnections(ReferenceRunner, InventoryTool)).toBe(true);
    const runnerMutant = MUTANTS.find((m) => m.runner !== ReferenceRunner)!;
    const storeMutant = MUTANTS.find((m) => m.tool !== InventoryTool)!;
    expect(mayKeepConnections(runnerMutant.runner, runnerMutant.tool)).toBe(false); // a broken runner
    expect(mayKeepConnections(ReferenceRunner, storeMutant.tool)).toBe(false); // a broken store
    const kept = new KeptConnections();
    try {
      await expect(simulate(byId('happy_path'), { storage: 'file', kept })).rejects.toThrow(TypeError);
      await expect(simulate(byId('happy_path'), { storage: 'memory', keepDir: '/nonexistent', kept })).rejects.toThrow(/no folder to keep/);
      expect((await simulate(byId('happy_path'), { storage: 'memory', kept })).state?.status).toBe('succeeded');
    } finally {
      kept.close();
    }
  });
});
