/**
 * npm run bench: the figures of issue 13, each measured in this run against what it is compared with.
 *
 *  1. statements per run, recorded from an in-thread exploration of depth 1 over the 17;
 *  2. per schedule, on one thread: exploring against two floors — the naive floor (a fresh in-memory
 *     database, the schema and the 11 statements of a minimal correct run, naiveFloor.mjs) and the replay of
 *     faultlab's own statements straight on better-sqlite3 (floor.mjs) — in alternating rounds;
 *  3. depth 1, the CPU time of the whole command `faultlab explore --workers 1` against the Python model
 *     (`python3 py_runner.py explore --memory`), the two alternating;
 *  4. depth 1 and depth 2 with the default workers: wall time, and the peak memory of depth 2;
 *  5. `faultlab run --quiet` over the 17 against `node -e 0`, alternating (and again without NODE_EXTRA_CA_CERTS,
 *     when it is set: Node reads those certificates at every start).
 *
 * Medians throughout, with the spread; the load average before and after says how quiet the machine was.
 * A benchmark, not a test: nothing here fails on a slow machine. FAULTLAB_BENCH_ROUNDS scales the repeats.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { explore } from '../dist/src/explore/explore.js';
import { defaultWorkers } from '../dist/src/explore/pool.js';
import { loadScenarios } from '../dist/src/scenario/load.js';
import { replay } from './floor.mjs';
import { NAIVE_STATEMENTS, naiveRuns } from './naiveFloor.mjs';
import { record } from './record.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'faultlab.cjs'); // the package's bin: what `faultlab` and `npx faultlab` run
const RUSAGE = join(ROOT, 'bench', 'rusage.cjs');
const SCALE = Number(process.env.FAULTLAB_BENCH_ROUNDS ?? 1);
const rounds = (n: number) => Math.max(1, Math.round(n * SCALE));
const scenarios = loadScenarios();
const out = (line = '') => process.stdout.write(`${line}\n`);
const loadBefore = loadavg();

// ---------------------------------------------------------------------------------------------- measuring
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const spread = (xs: number[], unit: string, digits = 0) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)} ${unit}`;

/** CPU time (µs) this thread spends on `work`. */
async function cpu(work: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

interface Measured {
  wallMs: number;
  cpuMs: number;
  maxRssKb: number;
}

/**
 * Run a faultlab (or node) command in a child process: its wall time, and its CPU and peak memory from inside.
 * `env` replaces variables of this process's environment (undefined: the variable is left out).
 */
function node(args: string[], env: Record<string, string | undefined> = {}): Measured {
  const dir = mkdtempSync(join(tmpdir(), 'faultlab-bench-'));
  const file = join(dir, 'rusage.json');
  try {
    const childEnv: Record<string, string | undefined> = { ...process.env, FAULTLAB_BENCH_RUSAGE: file, NO_COLOR: '1', ...env };
    for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
    const started = performance.now();
    const child = spawnSync(process.execPath, ['--require', RUSAGE, ...args], { cwd: dir, env: childEnv, stdio: ['ignore', 'ignore', 'inherit'] });
    const wallMs = performance.now() - started;
    if (child.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${child.status}`);
    return { wallMs, ...(JSON.parse(readFileSync(file, 'utf8')) as Omit<Measured, 'wallMs'>) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The Python model (bench/yardsticks, or FAULTLAB_PY_BASELINE's path), if python3 is here. */
function pythonBaseline(): string | null {
  const candidates = [process.env.FAULTLAB_PY_BASELINE, join(ROOT, 'bench', 'yardsticks', 'py_runner.py')];
  const script = candidates.find((path) => path !== undefined && existsSync(path));
  if (script === undefined) return null;
  return spawnSync('python3', ['--version']).status === 0 ? script! : null;
}

/** The Python model's run, its CPU measured by Python itself (the children's rusage). */
function python(script: string): Measured {
  const probe = 'import resource, subprocess, sys, time\nt = time.perf_counter()\nr = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\nw = time.perf_counter() - t\nu = resource.getrusage(resource.RUSAGE_CHILDREN)\nprint(w * 1000, (u.ru_utime + u.ru_stime) * 1000, u.ru_maxrss, r.returncode)';
  const child = spawnSync('python3', ['-c', probe, 'python3', script, 'explore', '--memory'], { encoding: 'utf8' });
  const [wallMs, cpuMs, maxRssKb, status] = child.stdout.trim().split(/\s+/).map(Number);
  if (status !== 0) throw new Error(`python3 ${script} explore --memory exited with ${status}`);
  return { wallMs: wallMs!, cpuMs: cpuMs!, maxRssKb: maxRssKb! };
}

// ---------------------------------------------------------------------------------------------- 1. statements
const { result: recorded, recording } = await record(() => explore(scenarios, { depth: 1, workers: 1 }));
const schedules = recorded.total.total;
if (recording.runs !== schedules) throw new Error(`recorded ${recording.runs} runs for ${schedules} schedules`);
const perRun = recording.statements / recording.runs;

out(`faultlab bench — Node ${process.version}, ${availableParallelism()} core(s), load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} at the start`);
out();
out(`1. Statements per run: ${perRun.toFixed(1)} (${recording.statements} over the ${schedules} runs of depth 1: ${scenarios.length} scenarios as written, ${schedules - scenarios.length} with one added fault)`);

// ---------------------------------------------------------------------------------------------- 2. per schedule
const naivePerRun: number[] = [];
const replayPerRun: number[] = [];
const explorePerSchedule: number[] = [];
await explore(scenarios, { depth: 1, workers: 1 }); // warm, as the floors are after their first round
naiveRuns(200);
for (let i = 0; i < rounds(7); i += 1) {
  naivePerRun.push((await cpu(() => naiveRuns(500))) / 500);
  replayPerRun.push((await cpu(() => replay(recording.ops))) / recording.runs);
  explorePerSchedule.push((await cpu(() => explore(scenarios, { depth: 1, workers: 1 }))) / schedules);
}
const [naive, replayed, explored] = [median(naivePerRun), median(replayPerRun), median(explorePerSchedule)];
const toNaive = explorePerSchedule.map((e, i) => e / naivePerRun[i]!);
out();
out(`2. Per schedule, one thread, CPU (median of ${naivePerRun.length} alternating rounds):`);
out(`     naive floor (fresh database, schema, ${NAIVE_STATEMENTS} statements)   ${naive.toFixed(0).padStart(6)} µs   (${spread(naivePerRun, 'µs')})`);
out(`     replay of faultlab's own statements        ${replayed.toFixed(0).padStart(6)} µs   (${spread(replayPerRun, 'µs')})`);
out(`     explore, depth 1                           ${explored.toFixed(0).padStart(6)} µs   (${spread(explorePerSchedule, 'µs')})`);
out(`     explore / naive floor ${median(toNaive).toFixed(2)}× (rounds ${spread(toNaive, '×', 2)}; target ≤ 3×), explore / replay ${(explored / replayed).toFixed(2)}×`);

// ---------------------------------------------------------------------------------------------- 3. against Python
const script = pythonBaseline();
out();
if (script === null) {
  out('3. Depth 1 against the Python model: skipped (python3 or bench/yardsticks/py_runner.py not found; FAULTLAB_PY_BASELINE names another)');
} else {
  const py: number[] = [];
  const fl: number[] = [];
  for (let i = 0; i < rounds(5); i += 1) {
    py.push(python(script).cpuMs);
    fl.push(node([BIN, 'explore', '--workers', '1', '--json']).cpuMs);
  }
  const ratios = fl.map((f, i) => f / py[i]!);
  out(`3. Depth 1 over the ${scenarios.length}, CPU of the whole command (median of ${py.length} alternating pairs):`);
  out(`     python3 py_runner.py explore --memory      ${(median(py) / 1000).toFixed(2).padStart(6)} s    (${spread(py.map((x) => x / 1000), 's', 2)})`);
  out(`     faultlab explore --workers 1 --json        ${(median(fl) / 1000).toFixed(2).padStart(6)} s    (${spread(fl.map((x) => x / 1000), 's', 2)})`);
  out(`     faultlab / Python ${median(ratios).toFixed(2)} of the CPU (pairs ${spread(ratios, '', 2)}; target ≤ 0.33)`);
}

// ---------------------------------------------------------------------------------------------- 4. wall, memory
const workers = defaultWorkers();
const depthOne = Array.from({ length: rounds(3) }, () => node([BIN, 'explore', '--json']));
const depthTwo = Array.from({ length: rounds(2) }, () => node([BIN, 'explore', '--depth', '2', '--json']));
out();
out(`4. With the default workers (${workers}), wall time of the whole command (median of ${depthOne.length} and ${depthTwo.length}):`);
out(`     faultlab explore --json                    ${(median(depthOne.map((m) => m.wallMs)) / 1000).toFixed(2).padStart(6)} s    (${spread(depthOne.map((m) => m.wallMs / 1000), 's', 2)})`);
out(`     faultlab explore --depth 2 --json          ${(median(depthTwo.map((m) => m.wallMs)) / 1000).toFixed(2).padStart(6)} s    (${spread(depthTwo.map((m) => m.wallMs / 1000), 's', 2)}; target ≤ 10 s)`);
out(`     depth 2: ${(median(depthTwo.map((m) => m.cpuMs)) / 1000).toFixed(1)} s of CPU, peak memory ${Math.max(...depthTwo.map((m) => m.maxRssKb / 1024)).toFixed(0)} MB (resident, all threads; target ≤ 200 MB)`);

// ---------------------------------------------------------------------------------------------- 5. start-up
/**
 * Node reads the certificates NODE_EXTRA_CA_CERTS names when it starts, before any script — on the machine
 * the issue was measured on, a bundle of ~150 that costs every `node` ~70 ms — so the yardstick `node -e 0`
 * is measured both ways when the variable is set: as this environment starts Node, and without it.
 */
function startUp(env: Record<string, string | undefined>): { bare: number[]; quiet: number[] } {
  const bare: number[] = [];
  const quiet: number[] = [];
  for (let i = 0; i < rounds(15); i += 1) {
    bare.push(node(['-e', '0'], env).wallMs);
    quiet.push(node([BIN, 'run', '--quiet'], env).wallMs);
  }
  return { bare, quiet };
}
const ways: Array<[string, Record<string, string | undefined>]> = [['', {}]];
if (process.env.NODE_EXTRA_CA_CERTS) ways.push([' without NODE_EXTRA_CA_CERTS', { NODE_EXTRA_CA_CERTS: undefined }]);
for (const [label, env] of ways) {
  const { bare, quiet } = startUp(env);
  const startRatios = quiet.map((q, i) => q / bare[i]!);
  out();
  out(`5. Start-up${label}, wall time (median of ${bare.length} alternating pairs):`);
  out(`     node -e 0                                  ${median(bare).toFixed(0).padStart(6)} ms   (${spread(bare, 'ms')})`);
  out(`     faultlab run --quiet (the ${scenarios.length})              ${median(quiet).toFixed(0).padStart(6)} ms   (${spread(quiet, 'ms')})`);
  out(`     run --quiet / node -e 0 ${median(startRatios).toFixed(2)}× (pairs ${spread(startRatios, '×', 2)}; target ≤ 2×)`);
}
out();
out(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end`);
