import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '../../src/core/clock.js';
import { openDatabase, type Db } from '../../src/core/storage.js';
import type { DurabilityEvent } from '../../src/durability/events.js';

/** A virtual clock at 0, an in-memory database, and a list that collects every event. */
export function bench(): { clock: VirtualClock; db: Db; events: DurabilityEvent[]; sink: (e: DurabilityEvent) => void } {
  const events: DurabilityEvent[] = [];
  return { clock: new VirtualClock(), db: openDatabase(), events, sink: (e) => events.push(e) };
}

/** The events of one type, narrowed. */
export function ofType<T extends DurabilityEvent['type']>(events: DurabilityEvent[], type: T): Extract<DurabilityEvent, { type: T }>[] {
  return events.filter((e): e is Extract<DurabilityEvent, { type: T }> => e.type === type);
}

/** A temporary directory for file databases; call the returned function to remove it. */
export function tempDir(): { dir: string; path: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'faultlab-durability-'));
  return { dir, path: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export const SECOND = 1000;
export const HOUR = 3_600_000;
