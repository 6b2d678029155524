/**
 * npm run bench, the grader (issue 20, item 5): how long a learner waits for a grade, and a teacher for a class.
 *
 *  1. one correct submission (the pinned solution, copied into a folder of its own as a learner hands it in):
 *     `faultlab grade FILE` — the graded set as written, then explored — wall time of the whole command, median
 *     of a few rounds; target ≤ 1.5 s;
 *  2. a class of 30 correct submissions (`submissions/<name>/LearnerRunner.ts`) with the default jobs (one per
 *     core): `faultlab grade DIR --summary`, wall time; target ≤ 25 s;
 *     The bench's class is the pinned solution and a correct step written otherwise (test/fixtures/learners/
 *     different: it stops after `prepared`), fifteen of each: a class costs a check per submission and an
 *     exploration per way of answering the harness (src/grade/explorations.ts), so this is one exploration and
 *     29 checks; thirty runners that each answer differently would cost thirty explorations (line 1b's time each);
 *  1b. one correct submission whose runs are its own (the different step, alone): its every scenario explored run
 *     by run — the grade's cost where no exploration already made is its runner's;
 *  3. the yardstick measured in the same run: `faultlab explore --workers 1` of the same graded set with the
 *     reference runner in-process (no box): what running the reference's exploration costs on one core. A grade
 *     held to the reference's exploration (recorded by the build) does not run it, and so goes under it.
 *
 * Wall times on this machine as it is: the load average before and after says how quiet it was. The box
 * processes' CPU is not in the "CPU" column (that is the faultlab process's own threads).
 * A benchmark, not a test: nothing here fails on a slow machine. FAULTLAB_BENCH_ROUNDS scales the repeats.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'faultlab.cjs');
const RUSAGE = join(ROOT, 'bench', 'rusage.cjs');
const SOLUTION = join(ROOT, 'test', 'fixtures', 'learners', 'solution', 'LearnerRunner.ts');
const DIFFERENT = join(ROOT, 'test', 'fixtures', 'learners', 'different', 'LearnerRunner.ts');
const SCALE = Number(process.env.FAULTLAB_BENCH_ROUNDS ?? 1);
const rounds = (n: number) => Math.max(1, Math.round(n * SCALE));
const out = (line = '') => process.stdout.write(`${line}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const spread = (xs: number[], digits = 2) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
const loadBefore = loadavg();

/** `faultlab ARGS` in `cwd`: wall time (s) and the process's own CPU (s); throws unless it exits with `status`. */
function faultlab(args: string[], cwd: string, status = 0): { wallS: number; cpuS: number } {
  const file = join(cwd, '.rusage.json');
  const started = performance.now();
  const child = spawnSync(process.execPath, ['--require', RUSAGE, BIN, ...args], { cwd, env: { ...process.env, FAULTLAB_BENCH_RUSAGE: file, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const wallS = (performance.now() - started) / 1000;
  if (child.status !== status) throw new Error(`faultlab ${args.join(' ')} exited with ${child.status}`);
  const { cpuMs } = JSON.parse(readFileSync(file, 'utf8')) as { cpuMs: number };
  return { wallS, cpuS: cpuMs / 1000 };
}

const dir = mkdtempSync(join(tmpdir(), 'faultlab-bench-grade-'));
try {
  out(`faultlab bench: the grader — Node ${process.version}, ${availableParallelism()} core(s), load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} at the start`);
  out();

  // 1. One submission, as a learner hands it in.
  const one = join(dir, 'alone');
  mkdirSync(one);
  copyFileSync(SOLUTION, join(one, 'LearnerRunner.ts'));
  faultlab(['grade', 'LearnerRunner.ts'], one); // warm: the compile cache, the page cache
  const alone = Array.from({ length: rounds(5) }, () => faultlab(['grade', 'LearnerRunner.ts'], one));
  const aloneWall = median(alone.map((m) => m.wallS));
  out(`1. One correct submission, graded (the graded set as written, then explored): ${aloneWall.toFixed(2)} s wall (median of ${alone.length}, ${spread(alone.map((m) => m.wallS))} s), ${median(alone.map((m) => m.cpuS)).toFixed(2)} s of CPU in faultlab's own threads — target ≤ 1.5 s`);

  // 1b. One correct submission whose runs are not the reference's: explored run by run.
  const own = join(dir, 'own');
  mkdirSync(own);
  copyFileSync(DIFFERENT, join(own, 'LearnerRunner.ts'));
  const owns = Array.from({ length: rounds(3) }, () => faultlab(['grade', 'LearnerRunner.ts'], own));
  out(`1b. One correct submission cut otherwise (its runs its own: every scenario explored run by run): ${median(owns.map((m) => m.wallS)).toFixed(2)} s wall (median of ${owns.length}, ${spread(owns.map((m) => m.wallS))} s)`);

  // 2. A class of 30 (half the pinned solution, half a correct one written otherwise).
  const klass = join(dir, 'class');
  for (let i = 1; i <= 30; i += 1) {
    const folder = join(klass, 'submissions', `learner-${String(i).padStart(2, '0')}`);
    mkdirSync(folder, { recursive: true });
    copyFileSync(i % 2 === 0 ? DIFFERENT : SOLUTION, join(folder, 'LearnerRunner.ts'));
  }
  const classRuns = Array.from({ length: rounds(1) }, () => faultlab(['grade', 'submissions', '--summary'], klass));
  out(`2. A class of 30 correct submissions, default jobs (${Math.min(4, availableParallelism())}): ${median(classRuns.map((m) => m.wallS)).toFixed(1)} s wall (${classRuns.length === 1 ? 'one run' : `median of ${classRuns.length}, ${spread(classRuns.map((m) => m.wallS), 1)} s`}) — target ≤ 25 s`);

  // 3. The yardstick: the same schedules explored with the reference, in-process, on one core.
  const graded = ['', 'graded'].flatMap((sub) => readdirSync(join(ROOT, 'scenarios', sub)).filter((f) => f.endsWith('.yaml')).map((f) => join(ROOT, 'scenarios', sub, f)));
  const explored = Array.from({ length: rounds(3) }, () => faultlab(['explore', '--workers', '1', '--json', '--out', join(dir, 'replays'), ...graded], one));
  out(`3. Yardstick: faultlab explore --workers 1 of the same scenarios, the reference in-process: ${median(explored.map((m) => m.wallS)).toFixed(2)} s wall (${spread(explored.map((m) => m.wallS))} s)`);
  out();
  out(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
