/**
 * `faultlab torture --db postgres…`: real worker processes, each connected by URL to one schema on the server — as
 * workers on several machines would be — SIGKILLed, SIGSTOPped, and (with --terminate-backends) their server backends
 * ended under them; the same checks as on SQLite at the end. A bounded run holds every check; a store with no fence
 * check is caught there too; nothing is left on the server or in the temporary folder.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shownUrl } from '../../src/postgres/url.js';
import type { TortureJson } from '../../src/render/torture.js';
import { noPostgres, testDatabase } from './database.js';
import { runSchemas } from './testDatabases.js';
import { expectDrainedAndHeld } from '../torture/helpers.js';

const root = mkdtempSync(join(tmpdir(), 'faultlab-torture-pg-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Real processes on a machine shared with others: generous bounds, no timing asserted. */
const RUN_MS = 120_000;

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
  tmp: string;
}

/** `faultlab torture …` as a process; `onStderr` sees its stderr as it comes. */
function torture(args: string[], onStderr?: (said: string) => void): Promise<Ended> {
  const tmp = mkdtempSync(join(root, 'tmp-'));
  const child = spawn(process.execPath, ['bin/faultlab.cjs', 'torture', ...args], { env: { ...process.env, TMPDIR: tmp, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    onStderr?.(stderr);
  });
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr, tmp })));
}

describe.skipIf(noPostgres !== null)(`faultlab torture --db${noPostgres !== null ? ` (skipped: ${noPostgres})` : ''}`, () => {
  it(
    'holds on a bounded run on a server given by URL — 3 workers, 12 kills, some of them backends terminated: 0 double effects, 0 lost intents, the fence held, nothing left behind',
    async () => {
      const url = await testDatabase();
      const end = await torture(['--db', url, '--workers', '3', '--kills', '12', '--terminate-backends', '--seed', '7', '--json']);
      expect([end.code, end.stdout === '' ? end.stderr : '']).toEqual([0, '']);
      const report = JSON.parse(end.stdout) as TortureJson;
      expect(report.db).toBe(shownUrl(url));
      expect([report.kills, report.pauses, report.checksMade, report.brokenAfterKill]).toEqual([12, 6, 13, null]);
      expect(report.backendsTerminated).toBeGreaterThan(0);
      expect(report.backendsTerminated).toBeLessThan(12);
      // No integrity_check: it is SQLite's (src/cli/torture/place.ts).
      expect(report.checks.map((check) => [check.id, check.found])).toEqual([
        ['double_effects', 0],
        ['ledger_is_effects', 0],
        ['lost_intents', 0],
        ['fence', 0],
      ]);
      expectDrainedAndHeld(report);
      expect(await runSchemas(url)).toEqual([]); // the run's schema dropped
      expect(readdirSync(end.tmp)).toEqual([]);
    },
    RUN_MS,
  );

  it(
    'catches a store that checks the task but not the holder (mutant:no_fence_check) on PostgreSQL too: exit 1, the fence broken',
    async () => {
      const url = await testDatabase();
      const end = await torture(['--db', url, '--workers', '3', '--kills', '30', '--pauses', '40', '--tool-ms', '20', '--seed', '7', '--runner', 'mutant:no_fence_check']);
      expect(end.code).toBe(1);
      expect(end.stdout).toMatch(/^faultlab torture — 3 worker processes on one PostgreSQL schema \(--db postgres/m);
      expect(end.stdout).toMatch(/^ {2}✗ the fence held: no stale write went in: \d+ found — /m);
      for (const held of ['✓ no double effects', '✓ ledger rows = effects']) expect(end.stdout).toContain(held);
      expect(await runSchemas(url)).toEqual([]);
      expect(readdirSync(end.tmp)).toEqual([]);
    },
    RUN_MS,
  );

  it(
    "shares one queue between two runs — as workers on two machines: the second joins the first's schema by the command the first says, kills its own workers, and both hold",
    async () => {
      const url = await testDatabase();
      let joiner: Promise<Ended> | null = null;
      const host = torture(['--db', url, '--workers', '2', '--kills', '40', '--seed', '7', '--json'], (said) => {
        const command = /--join (faultlab_run_\S+)/.exec(said);
        if (command !== null && joiner === null) joiner = torture(['--db', url, '--join', command[1]!, '--workers', '2', '--kills', '4', '--pauses', '2', '--seed', '8', '--json']);
      });
      const hostEnd = await host;
      expect(joiner).not.toBeNull();
      const joinEnd = await joiner!;
      expect([hostEnd.code, joinEnd.code]).toEqual([0, 0]);
      expect(hostEnd.stderr).toMatch(/^torture: workers on another machine join this run’s queue, until it ends, with: npx faultlab torture --db \S+ --join faultlab_run_/m);
      const [first, second] = [JSON.parse(hostEnd.stdout) as TortureJson, JSON.parse(joinEnd.stdout) as TortureJson];
      expect([first.held, first.drained, first.joined, second.held, second.joined]).toEqual([true, true, null, true, /--join (\S+)/.exec(hostEnd.stderr)![1]]);
      expect(second.workerErrors).toEqual([]);
      expect(second.grants).toBeGreaterThan(0); // the joining run's workers took tasks from the first's queue
      for (const report of [first, second]) expect(report.checks.every((check) => check.found === 0)).toBe(true);
      expect(await runSchemas(url)).toEqual([]);
    },
    RUN_MS,
  );
});
