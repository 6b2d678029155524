/**
 * The four ways to judge a runner — `faultlab run`, `faultlab explore`, `faultlab grade` and the classroom
 * assertions — asked the same questions, for the agreement tests (agreement.*.test.ts): per scenario as written,
 * did it pass; per scenario explored, how many schedules ran and how many broke a rule.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { expectRun } from '../../src/classroom/expectRun.js';
import { runScenario } from '../../src/classroom/runScenario.js';
import { gradeSubmission } from '../../src/grade/gradeSubmission.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { cli } from '../support.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const LEARNERS = join(ROOT, 'test', 'fixtures', 'learners');
export const scenarios = loadScenarios();
export const ids = scenarios.map((s) => s.id);
/**
 * Explored for every runner: a crash after commit, a lost reply, a refusal and a budget. Exploring all 17 for
 * every fixture took minutes; these four meet every rule a mistake in the fixtures breaks.
 */
export const EXPLORED = ['lost_reply', 'crash_after_commit', 'stale_version', 'budget_exhausted'];

export interface Explored {
  asWritten: Record<string, boolean>;
  explored: Record<string, { schedules: number; broke: number }>;
}

export function scratchFolder(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'faultlab-agreement-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `faultlab run --json`: per scenario as written, did it pass. */
export async function byRun(runner: string): Promise<Record<string, boolean>> {
  const out = await cli(['run', '--json', '--runner', runner]);
  const doc = JSON.parse(out.stdout) as { scenarios: Array<{ id: string; passed: boolean }> };
  return Object.fromEntries(doc.scenarios.map((s) => [s.id, s.passed]));
}

/** `faultlab explore --json` over EXPLORED. */
export async function byExplore(runner: string, out: string): Promise<Explored> {
  const run = await cli(['explore', ...EXPLORED, '--json', '--workers', '1', '--out', out, '--runner', runner]);
  const doc = JSON.parse(run.stdout) as { scenarios: Array<{ id: string; asWritten: { passed: boolean }; explored: { schedules: number; broke: number } }> };
  return {
    asWritten: Object.fromEntries(doc.scenarios.map((s) => [s.id, s.asWritten.passed])),
    explored: Object.fromEntries(doc.scenarios.map((s) => [s.id, s.explored])),
  };
}

/** `gradeSubmission`: the 17 as written; and EXPLORED explored, when asked. (A mutant's file is graded, not refused.) */
export async function byGrade(file: string, explore: boolean): Promise<Explored> {
  const asWritten = await gradeSubmission(file, { scenarios, replayDir: null, cwd: ROOT, explore: false, acceptShipped: true });
  const explored = explore ? await gradeSubmission(file, { scenarios: scenarios.filter((s) => EXPLORED.includes(s.id)), replayDir: null, cwd: ROOT, acceptShipped: true }) : null;
  return {
    asWritten: Object.fromEntries(asWritten.scenarios.map((s) => [s.id, s.status === 'pass'])),
    // A scenario that could not be explored (its run as written never ended) has no coverage: explore runs its schedules anyway.
    // The counts (a scenario held to the reference's exploration says so beside them: not run again).
    explored: Object.fromEntries((explored?.explored ?? []).filter((s) => s.coverage !== undefined).map((s) => [s.id, { schedules: s.coverage!.schedules, broke: s.coverage!.broke }])),
  };
}

/** `runScenario` and `expectRun(run).toPass()`, scenario by scenario. */
export async function byClassroom(runner: Parameters<typeof runScenario>[1]['runner']): Promise<Record<string, boolean>> {
  const verdicts: Record<string, boolean> = {};
  for (const id of ids) {
    const run = await runScenario(id, { runner });
    let passed = true;
    try {
      expectRun(run).toPass();
    } catch {
      passed = false;
    }
    verdicts[id] = passed;
  }
  return verdicts;
}

/** Every verdict as written the same as `run`'s; every explored count the same as explore's. */
export function expectAgreement(run: Record<string, boolean>, others: { explored: Explored; graded: Explored; classroom?: Record<string, boolean> }): void {
  expect(Object.keys(run)).toEqual(ids);
  expect(others.graded.asWritten).toEqual(run);
  if (others.classroom !== undefined) expect(others.classroom).toEqual(run);
  expect(others.explored.asWritten).toEqual(Object.fromEntries(EXPLORED.map((id) => [id, run[id]])));
  for (const [id, coverage] of Object.entries(others.graded.explored)) expect({ id, ...others.explored.explored[id] }).toEqual({ id, ...coverage });
}
