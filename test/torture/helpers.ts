/** Set-up for the torture's tests: a torture file with tasks in it, and a worker's life on it run in this process. */
import { join } from 'node:path';
import { expect } from 'vitest';
import type { TortureJson } from '../../src/render/torture.js';
import { VirtualClock } from '../../src/core/clock.js';
import { SeededRng } from '../../src/core/rng.js';
import { openShared, type Db } from '../../src/core/storage.js';
import { createTortureDatabase, enqueue } from '../../src/torture/intents.js';
import { partsOf } from '../../src/torture/parts.js';
import { ProcessLife } from '../../src/torture/ProcessLife.js';
import { tempFolder } from '../tempFolder.js';

export const LEASE_MS = 40;

/** A fresh torture file with `tasks` queued (t0000000 …). */
export function tortureFile(tasks: number): { db: Db; path: string } {
  const path = join(tempFolder('torture'), 'torture.db');
  const db = openShared(path);
  createTortureDatabase(db);
  if (tasks > 0) enqueue(db, 0, tasks);
  return { db, path };
}

/** A worker's life on its own connection, on a virtual clock: nothing waits for real, and BUSY cannot happen (one writer at a time). */
export function life(path: string, name: string, clock = new VirtualClock(), runner = 'reference'): ProcessLife {
  return new ProcessLife({
    db: openShared(path),
    clock,
    rng: new SeededRng(`${name}/tool`),
    name,
    leaseMs: LEASE_MS,
    parts: partsOf(runner),
    wait: async () => {
      throw new Error('SQLITE_BUSY with nobody else writing');
    },
    onTheWire: async () => {},
    maxSteps: 100,
  });
}

/** Cycles until the queue has nothing to claim; returns how many tasks the life finished. */
export async function drain(worker: ProcessLife): Promise<number> {
  let finished = 0;
  while ((await worker.worker.cycle()) !== 'idle') finished += 1;
  return finished;
}

/**
 * A torture run's report, its queue drained and every end check held: each task done or failed, none left queued or
 * running, one receipt per effect, every intent done took effect (once: no double effects), no worker's error.
 */
export function expectDrainedAndHeld(report: TortureJson): void {
  expect(report.drained).toBe(true);
  expect(report.tasks.done + report.tasks.failed).toBe(report.enqueued);
  expect([report.tasks.queued, report.tasks.running]).toEqual([0, 0]);
  expect(report.tasks.effects).toBe(report.tasks.receipts);
  expect(report.tasks.effects).toBeGreaterThanOrEqual(report.tasks.done);
  expect(report.workerErrors).toEqual([]);
  expect(report.held).toBe(true);
}
