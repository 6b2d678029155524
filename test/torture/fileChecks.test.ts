/**
 * Every check torture makes on the file can fail (docs/spec.md §19: a check that cannot fail is a defect): each is
 * shown here holding on a file a worker really finished, then breaking on a file with one breach forged into it —
 * and only that check breaking, with the message that says what it found.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { openShared, type Db } from '../../src/core/storage.js';
import { word } from '../../src/render/words/index.js';
import { attachArchive, checkAndArchive } from '../../src/torture/archive.js';
import { allAccountedFor, combine, fileFigures, integrity, runChecks, taskChecks, type FileCheck } from '../../src/torture/fileChecks.js';
import { drain, life, tortureFile } from './helpers.js';
import { tempFolder } from '../tempFolder.js';
import { join } from 'node:path';

let db: Db;
let path: string;

/** Three tasks finished by one worker, and a fourth left queued. */
beforeEach(async () => {
  ({ db, path } = tortureFile(3));
  expect(await drain(life(path, 'w1'))).toBe(3);
  db.exec("INSERT INTO items VALUES ('item-t0000003', 2, 0); INSERT INTO tasks(task_id, state) VALUES ('t0000003', 'queued')");
});

const broken = (checks: FileCheck[]) => checks.filter((c) => !c.passed).map((c) => c.id);
const first = (checks: FileCheck[], id: string) => word('en', checks.find((c) => c.id === id)!.first!);

describe('the checks on a file a worker really finished', () => {
  it('all hold; the figures are three done, three effects, three receipts, one queued', () => {
    expect(broken([integrity(db, 'main', 'torture.db'), ...runChecks(db, taskChecks('main', false))])).toEqual([]);
    expect(runChecks(db, fileFigures('main'))).toEqual({ queued: 1, running: 0, done: 3, failed: 0, effects: 3, receipts: 3 });
  });

  it('count a queued task as lost only once the run is over (final)', () => {
    expect(broken(runChecks(db, taskChecks('main', true)))).toEqual(['lost_intents']);
    expect(first(runChecks(db, taskChecks('main', true)), 'lost_intents')).toMatch(/^t0000003 is still queued once the signals have stopped/);
  });
});

describe('each check breaks on its own breach', () => {
  it('double effects: a second effect of one intent, with its own receipt', () => {
    db.exec(`UPDATE items SET available = 0, version = 2 WHERE item_id = 'item-t0000001';
             INSERT INTO ledger SELECT 'other-key', fingerprint, task_id, item_id, qty, result, created_at_ms FROM ledger WHERE task_id = 't0000001'`);
    const checks = runChecks(db, taskChecks('main', false));
    expect(broken(checks)).toEqual(['double_effects']);
    expect(first(checks, 'double_effects')).toMatch(/^t0000001 took effect 2 times and holds 2 receipts/);
  });

  it('ledger rows = effects: an effect without a receipt', () => {
    db.exec("UPDATE items SET available = 1, version = 1 WHERE item_id = 'item-t0000003'");
    const checks = runChecks(db, taskChecks('main', false));
    expect(broken(checks)).toEqual(['ledger_is_effects']);
    expect(first(checks, 'ledger_is_effects')).toMatch(/^item-t0000003: its version moved 1 times and 1 of 2 are left, but the ledger holds 0 receipts taking 0/);
  });

  it('lost intents: a task done without its receipt (and without its effect)', () => {
    db.exec("DELETE FROM ledger WHERE task_id = 't0000002'; UPDATE items SET available = 2, version = 0 WHERE item_id = 'item-t0000002'");
    const checks = runChecks(db, taskChecks('main', false));
    expect(broken(checks)).toEqual(['lost_intents']);
    expect(first(checks, 'lost_intents')).toBe('t0000002 is done, and the ledger holds no receipt for it: its success was recorded without its effect');
  });

  it('lost intents: a task failed by a refusal (tool_error) whose intent took effect', () => {
    db.exec("UPDATE tasks SET state = 'failed', result = 'tool_error' WHERE task_id = 't0000001'");
    const checks = runChecks(db, taskChecks('main', false));
    expect(broken(checks)).toEqual(['lost_intents']);
    expect(first(checks, 'lost_intents')).toMatch(/^t0000001 failed as tool_error — a refusal, which changes nothing — yet its item moved 1 times/);
  });

  it("lost intents: a finished task whose log's last line does not hold the state it finished in", () => {
    db.exec("DELETE FROM events WHERE task_id = 't0000001' AND label = 'succeeded'");
    const checks = runChecks(db, taskChecks('main', false));
    expect(broken(checks)).toEqual(['lost_intents']);
    expect(first(checks, 'lost_intents')).toMatch(/^t0000001 was finished as succeeded, but the last line of its log says running: /);
  });

  it('lost intents: a task the producer made that is in neither file', () => {
    attachArchive(db, join(tempFolder('torture-archive'), 'archive.db'));
    expect(runChecks(db, allAccountedFor(['main', 'archive'], 4)).passed).toBe(true);
    const missing = runChecks(db, allAccountedFor(['main', 'archive'], 5));
    expect([missing.passed, missing.found, word('en', missing.first!)]).toEqual([false, 1, 'the producer queued 5 tasks; the files hold 4']);
  });

  it('the fence: a task finished under a token older than its last grant', () => {
    db.exec("UPDATE tasks SET token = token + 1 WHERE task_id = 't0000000'");
    const checks = runChecks(db, taskChecks('main', false));
    expect(broken(checks)).toEqual(['fence']);
    expect(first(checks, 'fence')).toMatch(/^t0000000 was finished under token 1 while its last grant is token 2: a stale holder finished/);
  });

  it("the fence: a line of a task's log under a token older than a line before it", () => {
    db.exec(`UPDATE tasks SET token = 2, finished_token = 2 WHERE task_id = 't0000000';
             INSERT INTO events(label, state, task_id, owner, token) SELECT 'successor', state, task_id, 'w9', 2 FROM events WHERE task_id = 't0000000' AND label = 'succeeded';
             INSERT INTO events(label, state, task_id, owner, token) SELECT 'zombie', state, task_id, 'w1', 1 FROM events WHERE task_id = 't0000000' AND label = 'succeeded'`);
    const checks = runChecks(db, taskChecks('main', false));
    expect(broken(checks)).toEqual(['fence']);
    expect(first(checks, 'fence')).toMatch(/^line \d+ of t0000000’s log was written under token 1, after a line under token 2: a zombie wrote after its successor/);
  });

  it('the fence: one token granted to two workers, each writing under it', () => {
    db.exec("INSERT INTO events(label, state, task_id, owner, token) SELECT 'twin', state, task_id, 'w2', 1 FROM events WHERE task_id = 't0000000' AND label = 'succeeded'");
    const checks = runChecks(db, taskChecks('main', false));
    expect(broken(checks)).toEqual(['fence']);
    expect(first(checks, 'fence')).toMatch(/^t0000000’s log has lines under token 1 from (w1,w2|w2,w1): one token was granted twice/);
  });

  it('the fence: a finished task queued again (a rescue that overwrote done)', () => {
    db.exec("UPDATE tasks SET state = 'queued', owner = NULL WHERE task_id = 't0000002'");
    const checks = runChecks(db, taskChecks('main', false));
    expect(broken(checks)).toEqual(['fence']);
    expect(first(checks, 'fence')).toBe('t0000002 is queued again after it was finished under token 1: a finished task never changes — every write, the sweep’s included, must require the task still running');
  });

  it('integrity: a page of the file overwritten', () => {
    db.exec("UPDATE tasks SET result = 'x' WHERE task_id = 't0000000'");
    const root = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_tasks_1'").pluck().get() as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.pragma('wal_checkpoint(TRUNCATE)'); // every page in the file itself, none left in the WAL
    db.close();
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(32, 'z'), 0, 32, root * pageSize - 32); // the index's last cells
    closeSync(fd);
    db = openShared(path);
    const check = integrity(db, 'main', 'torture.db');
    expect([check.passed, check.found > 0]).toEqual([false, true]);
    expect(word('en', check.first!)).toMatch(/^torture\.db: (?!\*).*(page|index)/);
  });
});

describe('checked and archived, under the write lock', () => {
  it('moves the finished tasks, checked, to the archive — their rows, logs, receipts, tokens and items — and leaves the rest', () => {
    attachArchive(db, join(tempFolder('torture-archive'), 'archive.db'));
    const { checks, moved } = checkAndArchive(db, 'torture.db');
    expect([broken(checks), moved]).toEqual([[], 3]);
    expect(runChecks(db, fileFigures('main'))).toEqual({ queued: 1, running: 0, done: 0, failed: 0, effects: 0, receipts: 0 });
    expect(runChecks(db, fileFigures('archive'))).toEqual({ queued: 0, running: 0, done: 3, failed: 0, effects: 3, receipts: 3 });
    expect(db.prepare('SELECT count(*) FROM archive.events').pluck().get()).toBe(3 * 8);
    expect(broken(runChecks(db, taskChecks('archive', true)))).toEqual([]);
    expect(runChecks(db, allAccountedFor(['main', 'archive'], 4)).passed).toBe(true);
  });

  it('moves nothing when a check broke: the evidence stays where it was found', () => {
    attachArchive(db, join(tempFolder('torture-archive'), 'archive.db'));
    db.exec("UPDATE tasks SET token = token + 1 WHERE task_id = 't0000000'");
    const { checks, moved } = checkAndArchive(db, 'torture.db');
    expect([broken(checks), moved]).toEqual([['fence'], 0]);
    expect(runChecks(db, fileFigures('main')).done).toBe(3);
  });
});

describe('the verdicts of many checks as one', () => {
  const fence = (found: number, task: string): FileCheck => ({ id: 'fence', passed: found === 0, found, first: found === 0 ? null : { code: 'torture.check.fence.finishedStale', params: { task, finished: 1, token: 2 } } });

  it('adds up the schemas of one moment, keeps the most any moment found and the earliest first breach', () => {
    const [verdict] = combine([[fence(0, '-')], [fence(1, 'a'), fence(2, 'b')], [fence(1, 'c')]]);
    expect(verdict).toEqual({ id: 'fence', passed: false, found: 3, first: fence(1, 'a').first });
    expect(combine([[fence(0, '-')], [fence(0, '-')]])).toEqual([{ id: 'fence', passed: true, found: 0, first: null }]);
  });
});
