/**
 * `faultlab torture` as a learner runs it (docs/spec.md §19): real worker processes on one SQLite file, real SIGKILLs
 * and SIGSTOPs, the file checked after every kill and at the end. A bounded run holds every check; a store with no
 * fence check is caught; and on every way out — the end, Ctrl-C, a SIGKILL of torture itself followed by the next
 * start — no worker process is left running and nothing is left in the temporary folder. Each run has a TMPDIR of
 * its own, and a worker is found by its command line, which names its database in that folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TortureJson } from '../../src/render/torture.js';
import { expectDrainedAndHeld } from './helpers.js';

const root = mkdtempSync(join(tmpdir(), 'faultlab-torture-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;
const freshTmp = () => {
  const dir = join(root, `tmp-${(made += 1)}`);
  mkdirSync(dir);
  return dir;
};

/** A run of real processes on a machine shared with others: generous bounds, no timing asserted. */
const RUN_MS = 240_000;

/** faultlab's folders in a TMPDIR. */
const ours = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('faultlab-'));

/** The command lines (arguments split) of the processes that name something in `tmp`: torture's workers. */
function commandLinesIn(tmp: string): string[][] {
  return readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      const line = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      return line.includes(tmp) ? [line.split('\0')] : [];
    } catch {
      return []; // gone while we looked
    }
  });
}
const processesIn = (tmp: string) => commandLinesIn(tmp).length;

/** A process SIGKILLed a moment ago may take a moment to go: wait (at most a few seconds) until none is left. */
async function noneLeftIn(tmp: string): Promise<string[]> {
  for (let i = 0; i < 300 && processesIn(tmp) > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  return commandLinesIn(tmp).map((line) => line.join(' '));
}

interface Started {
  tmp: string;
  child: ReturnType<typeof spawn>;
  /** Resolves once stderr has shown `text`. */
  saw(text: string): Promise<void>;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function start(args: string[]): Started {
  const tmp = freshTmp();
  const child = spawn(process.execPath, ['bin/faultlab.cjs', 'torture', ...args], { env: { ...process.env, TMPDIR: tmp, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiting: Array<[string, () => void]> = [];
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => {
    stderr += d;
    for (const [text, resolve] of waiting) if (stderr.includes(text)) resolve();
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((done) => child.on('close', (code, signal) => done({ code, signal, stdout, stderr })));
  return { tmp, child, ended, saw: (text) => new Promise((resolve) => (stderr.includes(text) ? resolve() : waiting.push([text, resolve]))) };
}

describe('faultlab torture: real processes, real kills', () => {
  it(
    'holds on a bounded run — 3 workers, 25 kills: 0 double effects, 0 lost intents, ledger rows = effects, integrity ok, nothing left behind',
    async () => {
      const run = start(['--workers', '3', '--kills', '25', '--seed', '7', '--json']);
      const end = await run.ended;
      expect(end.code).toBe(0);
      const report = JSON.parse(end.stdout) as TortureJson;
      expect([report.kills, report.pauses, report.checksMade, report.brokenAfterKill]).toEqual([25, 12, 26, null]);
      expect(report.checks.map((check) => [check.id, check.found])).toEqual([
        ['integrity', 0],
        ['double_effects', 0],
        ['ledger_is_effects', 0],
        ['lost_intents', 0],
        ['fence', 0],
      ]);
      expectDrainedAndHeld(report);
      // The plan was dealt from the seed (the progress said so on stderr), and stdout is the JSON alone.
      expect(end.stderr).toMatch(/^torture: 0\/25 kills · 1\/12 pauses|^torture: 1\/25 kills · 0\/12 pauses/);
      expect(ours(run.tmp)).toEqual([]);
      expect(await noneLeftIn(run.tmp)).toEqual([]);
    },
    RUN_MS,
  );

  it(
    "catches a store that checks the task but not the holder (mutant:no_fence_check): a zombie's write after its successor's, exit 1 — said in Chinese with --lang zh",
    async () => {
      // Tool calls of 20 ms keep a successor on its task while the zombie wakes: the catch comes in a few kills.
      const run = start(['--workers', '3', '--kills', '30', '--pauses', '40', '--tool-ms', '20', '--seed', '7', '--runner', 'mutant:no_fence_check', '--lang', 'zh']);
      const end = await run.ended;
      expect(end.code).toBe(1);
      expect(end.stdout).toMatch(/^ {2}✗ 防护成立：没有过期写入落地：发现 \d+ 处 —— /m);
      expect(end.stdout).toMatch(/^第 \d+ 次杀死之后有检查失败：运行就此停止。$/m);
      expect(end.stdout).toContain('不成立：有检查失败。');
      for (const held of ['✓ PRAGMA integrity_check 回答 ok', '✓ 没有双重效果', '✓ 账本行数 = 效果数']) expect(end.stdout).toContain(held);
      expect(ours(run.tmp)).toEqual([]);
      expect(await noneLeftIn(run.tmp)).toEqual([]);
    },
    RUN_MS,
  );

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s mid-run (Ctrl-C, or a shutdown) kills every worker, removes the temporary folder and exits %i',
    async (signal, code) => {
      const run = start(['--workers', '3', '--kills', '1000', '--seed', '7']);
      await run.saw('torture: ');
      // The three workers (torture's own command line does not name the folder); one just restarted may not have
      // its own command line yet.
      for (let i = 0; i < 500 && processesIn(run.tmp) < 3; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      const workers = commandLinesIn(run.tmp);
      expect(workers).toHaveLength(3);
      // Each started on the worker's own bundle, as the built CLI starts them (a restart loads one file).
      for (const line of workers) expect(line[1]).toMatch(/dist\/bundle\/torture-worker\.load\.cjs$/);
      run.child.kill(signal);
      const end = await run.ended;
      expect(end.code).toBe(code);
      expect(end.stderr).toContain(`stopped by ${signal}; temporary files removed`);
      expect(ours(run.tmp)).toEqual([]);
      expect(await noneLeftIn(run.tmp)).toEqual([]);
    },
    RUN_MS,
  );

  it(
    "a torture SIGKILLed outright leaves its folder — and any worker it had stopped — for the next start's sweep",
    async () => {
      const run = start(['--workers', '3', '--kills', '1000', '--seed', '7']);
      await run.saw('torture: ');
      run.child.kill('SIGKILL');
      expect((await run.ended).signal).toBe('SIGKILL');
      expect(ours(run.tmp)).toHaveLength(1); // nothing can run on a SIGKILL
      const next = spawnSync(process.execPath, ['bin/faultlab.cjs', 'list'], { env: { ...process.env, TMPDIR: run.tmp }, encoding: 'utf8' });
      expect(next.status).toBe(0);
      expect(ours(run.tmp)).toEqual([]);
      expect(await noneLeftIn(run.tmp)).toEqual([]);
    },
    RUN_MS,
  );

  it('refuses a runner file (torture runs faultlab’s own workers) and a number out of range, as bad input', () => {
    const file = spawnSync(process.execPath, ['bin/faultlab.cjs', 'torture', '--runner', 'src/runner/LearnerRunner.ts'], { encoding: 'utf8', env: { ...process.env, TMPDIR: freshTmp() } });
    expect([file.status, file.stderr.split('\n')[0]]).toEqual([2, 'faultlab torture: torture runs faultlab’s own workers as processes: --runner reference or mutant:NAME, not "src/runner/LearnerRunner.ts"']);
    const kills = spawnSync(process.execPath, ['bin/faultlab.cjs', 'torture', '--kills', '0'], { encoding: 'utf8', env: { ...process.env, TMPDIR: freshTmp() } });
    expect([kills.status, kills.stderr.split('\n')[0]]).toEqual([2, 'faultlab torture: --kills must be a whole number from 1 to 1000000, got "0"']);
  });
});
