/**
 * Ctrl-C and SIGTERM stop a run and leave nothing behind: every temporary folder of faultlab's is removed
 * and the exit code says which signal it was (130, 143). A SIGKILL cannot be caught: its folders stay
 * until the next start, which sweeps them. Each test kills real runs in their own TMPDIR, mid-run — the
 * runs are held in a step (test/cli/fixtures/Gate.ts) or caught with their databases open.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gateFolder } from './gates.js';

const root = mkdtempSync(join(tmpdir(), 'faultlab-signals-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let runs = 0;

/** faultlab's own folders in `tmp` (tsx keeps a cache folder there too, which is not ours). */
const ours = (tmp: string) => readdirSync(tmp).filter((name) => /^faultlab-\d+-/.test(name));

const nap = new Int32Array(new SharedArrayBuffer(4));
/** Wait (without spinning) until `ready()` holds; a run that never gets there fails the test after 30 s. */
function waitFor(ready: () => boolean, what: string): void {
  for (let i = 0; i < 3000; i += 1) {
    if (ready()) return;
    Atomics.wait(nap, 0, 0, 10);
  }
  throw new Error(`gave up waiting for ${what}`);
}

interface Started {
  child: ChildProcess;
  tmp: string;
  /** The gate's token (test/cli/fixtures/Gate.ts): its box writes `gate-<token>.ready` once the run is in its first step. */
  token: string;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Start the built CLI in a TMPDIR of its own; with the Gate runner it stops in step 1 until the gate opens. */
function start(args: string[]): Started {
  runs += 1;
  const tmp = join(root, `tmp-${runs}`);
  mkdirSync(tmp);
  const token = `signals-${process.pid}-${runs}`;
  const runner = join(root, `Gate-${runs}.ts`);
  writeFileSync(runner, `import { gated } from ${JSON.stringify(join(import.meta.dirname, 'fixtures', 'Gate.ts'))};\nexport const LearnerRunner = gated(${JSON.stringify(token)});\n`);
  const child = spawn(process.execPath, ['bin/faultlab.js', ...args.map((arg) => (arg === GATE ? runner : arg))], {
    env: { ...process.env, TMPDIR: tmp },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((done) => child.on('close', (code, signal) => done({ code, signal, stderr })));
  return { child, tmp, token, ended };
}

/** Where a gated run's runner goes: a file of its own per run (start). */
const GATE = '<gate>';
const GATED_RUN = ['run', 'happy_path', '--storage', 'file', '--runner', GATE];

/** A run held in its first step, its temporary folder made and its databases open. */
function heldRun(): Started {
  const run = start(GATED_RUN);
  waitFor(() => gateFolder(run.token) !== null, 'the run to reach its first step');
  expect(ours(run.tmp)).toHaveLength(1);
  return run;
}

describe('a run stopped by a signal', () => {
  it('Ctrl-C (SIGINT) stops even a step that never returns, removes the temporary folder and exits 130', async () => {
    const run = heldRun();
    run.child.kill('SIGINT');
    const end = await run.ended;
    expect(end.code).toBe(130);
    expect(end.stderr).toContain('stopped by SIGINT; temporary files removed');
    expect(ours(run.tmp)).toEqual([]);
  });

  it('SIGTERM removes the temporary folder and exits 143, once the step in hand returns', async () => {
    const run = heldRun();
    run.child.kill('SIGTERM');
    writeFileSync(join(gateFolder(run.token)!, `gate-${run.token}.open`), ''); // the step returns; the signal is handled before the run is reported
    const end = await run.ended;
    expect(end.code).toBe(143);
    expect(end.stderr).toContain('stopped by SIGTERM; temporary files removed');
    expect(ours(run.tmp)).toEqual([]);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('%s during explore --storage file removes every worker thread\'s folders too', async (signal) => {
    const run = start(['explore', '--storage', 'file', '--workers', '2', '--out', join(root, 'explore-out')]);
    waitFor(() => ours(run.tmp).length > 0, 'the exploration to make a temporary folder');
    run.child.kill(signal);
    const end = await run.ended;
    expect(end.code).toBe(signal === 'SIGINT' ? 130 : 143);
    expect(ours(run.tmp)).toEqual([]);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('%s during a class grade whose box is held in a step: exits at once, every box and folder gone', async (signal) => {
    // Two submissions graded at once, one held in its first step by its gate, the other spinning in every step.
    const run = start(['grade', GATE, join(import.meta.dirname, '..', 'fixtures', 'learners', 'hostile', 'stalls-watchdog', 'LearnerRunner.ts'), '--scenarios', 'happy_path', '--timeout', '60000']);
    waitFor(() => gateFolder(run.token) !== null, 'the grade to reach its first step');
    run.child.kill(signal);
    const end = await run.ended;
    expect(end.code).toBe(signal === 'SIGINT' ? 130 : 143);
    expect(end.stderr).toContain(`stopped by ${signal}; temporary files removed`);
    expect(ours(run.tmp)).toEqual([]);
    // No box is left: none is still chrooted under, or running from, this grade's TMPDIR.
    await expect.poll(() => gateFolder(run.token), { timeout: 5000 }).toBeNull();
  });

  it('SIGKILL leaves its folder, and the next start sweeps it once the process is gone', async () => {
    const run = heldRun();
    const [left] = ours(run.tmp);
    run.child.kill('SIGKILL');
    const end = await run.ended;
    expect(end.signal).toBe('SIGKILL');
    expect(ours(run.tmp)).toEqual([left]); // nothing can run on a SIGKILL
    const next = spawnSync(process.execPath, ['bin/faultlab.js', 'list'], { env: { ...process.env, TMPDIR: run.tmp }, encoding: 'utf8' });
    expect(next.status).toBe(0);
    expect(ours(run.tmp)).toEqual([]);
  });
});
