/**
 * The dead letters a kept run left behind (`faultlab run SCENARIO --keep-db DIR`): read from DIR's event log,
 * each with the scenario it belongs to, so `faultlab dlq` can list them and replay one through simulate().
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { VirtualClock } from '../core/clock.js';
import { message } from '../core/message.js';
import type { SimCode } from './codes.js';
import { openDatabase } from '../core/storage.js';
import { DeadLetterQueue } from '../durability/dlq/DeadLetterQueue.js';
import { DlqError } from '../durability/errors.js';
import type { DeadIntent } from '../durability/seams/deadLetter.js';
import type { Scenario } from '../scenario/types.js';
import type { DlqRow } from './Run.js';

export interface KeptDeadLetter extends DlqRow {
  failedAtMs: number;
  expiresAtMs: number;
  scenario: Scenario;
}

export function keptDeadLetters(dir: string): KeptDeadLetter[] {
  const path = join(dir, 'events.db');
  if (!existsSync(path)) throw new DlqError('DLQ_NOT_FOUND', message<SimCode>('target.noEventsDb', { dir }));
  const db = openDatabase(path);
  try {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'dlq_records'").get() !== undefined;
    if (!hasTable) return [];
    return new DeadLetterQueue({ db, clock: new VirtualClock() }).list().map((record) => {
      const dead = record.originalOperation as DeadIntent;
      return {
        dlqId: record.dlqId,
        status: record.status,
        task: dead.intent.task,
        action: dead.intent.action,
        key: dead.intent.key,
        attempts: record.attempts,
        lastError: record.lastError.code,
        failedAtMs: record.failedAtMs,
        expiresAtMs: record.expiresAtMs,
        scenario: dead.scenario,
      };
    });
  } finally {
    db.close();
  }
}
