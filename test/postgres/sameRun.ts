/**
 * What "the same run on both databases" compares (protocol.pg.test.ts, pillars.pg.test.ts, workers.pg.test.ts): the trace as printed
 * with its header's facts aside, and the run's figures.
 */
import { expect } from 'vitest';
import type { RunResult } from '../../src/check/RunResult.js';
import { renderRun } from '../../src/render/renderText.js';
import { PLAIN } from '../../src/render/style.js';

export const text = (run: RunResult) => renderRun(run, PLAIN, { lang: 'en' });
/** The trace as printed, its header's facts aside (they name the database): the story above them, the faults and events below. */
export const aside = (printed: string) => printed.slice(0, printed.indexOf('\n  seed ')) + printed.slice(printed.indexOf('\n  faults: '));
/** The figures of a run, its dead letters and replays (the pillars') and its workers (many workers') included. */
export const figures = (run: RunResult) => ({
  status: run.state?.status,
  calls: run.state?.calls,
  crashes: run.crashes,
  db: run.db,
  log: run.log,
  dlq: run.dlq,
  replays: run.replays,
  workers: run.workers,
  checks: run.checks.map((check) => [check.id, check.passed, check.expected, check.actual]),
});

/** The same run on both databases: the same verdict, figures and trace, and the trace as printed line for line, its header aside. */
export function expectSameRun(onSqlite: RunResult, onPostgres: RunResult): void {
  expect(onPostgres.storage).toBe('postgres');
  expect(onPostgres.passed).toBe(onSqlite.passed);
  expect(figures(onPostgres)).toEqual(figures(onSqlite));
  expect(onPostgres.trace).toEqual(onSqlite.trace);
  expect(aside(text(onPostgres)).split('\n')).toEqual(aside(text(onSqlite)).split('\n'));
}
