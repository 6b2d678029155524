/**
 * A class no submission can corrupt (issue 21's "done when"). A folder of misbehaving submissions — each trying
 * one of the ways in that were found by hand — beside a correct one, graded by the built CLI in a process of its
 * own, with every output a teacher asks for (--json, --junit, --html, --results-dir, replays). The correct one
 * keeps full marks; every hostile one fails with a sentence that says what it did; the grade's files are the
 * grade's, after it too; the checkout (src, dist, scenarios) is byte-identical; nothing the class started is
 * still running and nothing is left in the temporary folder.
 *
 * Root only, as CI runs: where faultlab is not root, a grade says once which walls its boxes lacked (below),
 * and a hostile submission could reach more than its own run — the README says what.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../tempFolder.js';

const ROOT = join(import.meta.dirname, '..', '..');
const LEARNERS = join(ROOT, 'test', 'fixtures', 'learners');
const asRoot = process.getuid?.() === 0;

/** Each hostile submission, and what its first problem must say (the first scenario's message, first line). */
const HOSTILE: Record<string, RegExp> = {
  'forges-json-later': /^the runner threw Error at step 1 \(.*\): this step never works/, // and the JSON is not rewritten after the grade
  // Fake frames and a fake score, none counted. Its writes into every descriptor of its box can also kill the box
  // (SIGSEGV) before a later scenario's first step: among those descriptors are libuv's own signal pipes (one per
  // event loop, the main thread's and each worker's), from which libuv reads a handle *pointer* and follows it —
  // a forged frame there is a wild pointer in the submission's own process (measured: a frame written into any one
  // of them alone ends `node` with 139). Which scenario's box meets it first depends on which scenarios share a
  // box; either way the submission scores 0 and is told why, and nothing outside its box is touched.
  forges: /^(inv4 the event log rebuilds the state after every step|the learner's process was killed by SIGSEGV)/,
  'rewrites-checkout': /^the runner threw Error at step 1 \(.*\): this step never works/, // and the checkout is byte-identical
  'kills-grader': /^the runner threw Error at step 1 \(.*\): this step never works/, // and the grade went on to its end
  'stalls-watchdog': /^no answer after 3000 ms: step 1 never returned/, // each run costs the time limit, no more
  'exits-at-load': /^could not load .*exits-at-load\/LearnerRunner\.ts: the learner's process ended while loading the file \(exit code 0\)/,
  'spins-at-load': /^could not load .*spins-at-load\/LearnerRunner\.ts: loading the file did not finish in time/,
  'huge-buffers': /^the runner threw RangeError at step 1 \(.*\): Array buffer allocation failed/,
  'throws-non-error': /^the runner threw Error at step 1: threw a non-Error value: \[Object: null prototype\] \{\}/,
  'escape-codes': /^the runner threw Error at step 1 \(.*\): \\u001b\[2J\\u001b\]0;owned\\u0007/,
  'reads-the-clock': /^the runner threw DeterminismError at step 1 \(.*\): step\(\) called process\.hrtime\(\)/,
  'reexports-reference': /hands in faultlab's ReferenceRunner \(src\/runner\/ReferenceRunner\.ts\)/,
  'reexports-mutant': /hands in one of faultlab's mutants/,
  forks: /^the runner threw Error at step 1 \(.*\): this step never works/, // and the correct one, graded beside it, still starts
};
/** Correct steps: full marks. `peeks` tries to read its classmates and the scenarios, and prints what it read. */
const CORRECT = ['correct', 'peeks'];
const SCENARIOS = ['happy_path', 'lost_reply'];

/** Every file of the checkout a grade could touch, by path, with its hash. */
function checkout(): Map<string, string> {
  const hashes = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hashes.set(relative(ROOT, path), createHash('sha1').update(readFileSync(path)).digest('hex'));
    }
  };
  for (const folder of ['src', 'dist', 'scenarios']) walk(join(ROOT, folder));
  return hashes;
}

/** Processes that belong to this grade: chrooted under its TMPDIR, or naming it in their command line or environment. */
function processesOf(tmp: string): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      const read = (what: string) => {
        try {
          return what === 'root' ? readlinkSync(`/proc/${pid}/root`) : readFileSync(`/proc/${pid}/${what}`, 'utf8');
        } catch {
          return '';
        }
      };
      return ['root', 'cmdline', 'environ'].some((what) => read(what).includes(tmp));
    });
}

interface Graded {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI, in a process and a TMPDIR of its own. */
function grade(args: string[], cwd: string, tmp: string): Promise<Graded> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'faultlab.js'), ...args], { cwd, env: { ...process.env, TMPDIR: tmp, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** What a terminal would act on: C0 controls but newline and tab, DEL, C1 controls. */
const ACTS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe.runIf(asRoot)('a class of hostile submissions beside a correct one', { timeout: 240_000 }, () => {
  const work = tempFolder('hostile-class');
  const tmp = join(work, 'tmp');
  mkdirSync(tmp);
  const folder = join(work, 'class');
  for (const name of Object.keys(HOSTILE).concat(CORRECT)) {
    const from = name === 'correct' ? join(LEARNERS, 'solution') : name === 'forges' ? join(LEARNERS, 'class', 'forges') : join(LEARNERS, 'hostile', name);
    mkdirSync(join(folder, name), { recursive: true });
    cpSync(join(from, 'LearnerRunner.ts'), join(folder, name, 'LearnerRunner.ts'));
  }
  const out = join(work, 'out');
  const files = { json: join(out, 'class.json'), junit: join(out, 'class.xml'), html: join(out, 'pages'), results: join(out, 'results'), replays: join(out, 'replays') };
  mkdirSync(out);
  const before = checkout();
  const graded = grade(
    ['grade', folder, ...SCENARIOS.flatMap((id) => ['--scenarios', id]), '--timeout', '3000', '--load-timeout', '10000', '--jobs', '4', '--json', files.json, '--junit', files.junit, '--html', files.html, '--results-dir', files.results, '--replays', files.replays],
    work,
    tmp,
  );
  /** The class's JSON as the grade left it, read at its end (the test reads it again later: no one rewrote it). */
  const atEnd = graded.then(() => ({ json: readFileSync(files.json, 'utf8'), junit: readFileSync(files.junit, 'utf8') }));
  type Submission = { name: string; score: { passed: number; total: number }; results: { tests: Array<{ message: string | null; output?: string }> } };
  const doc = atEnd.then(({ json }) => JSON.parse(json) as { submissions: Submission[] });
  const byName = (all: Submission[], name: string) => all.find((s) => s.name === name)!;

  it('ends as a grade does: exit 1, every submission in the table, nothing on stderr, no escape code on stdout', async () => {
    const { code, stdout, stderr } = await graded;
    expect([code, stderr]).toEqual([1, '']);
    expect(stdout).toContain(`  ${Object.keys(HOSTILE).length + CORRECT.length} submissions · ${SCENARIOS.length} scenarios · seed 42\n`);
    expect(stdout).toContain(`  ${CORRECT.length} of ${Object.keys(HOSTILE).length + CORRECT.length} passed everything\n`);
    expect(stdout).not.toMatch(ACTS);
  });

  it('gives the correct steps full marks: nothing a classmate did cost them a point', async () => {
    const all = (await doc).submissions;
    for (const name of CORRECT) expect(byName(all, name).score, name).toMatchObject({ passed: 2 * SCENARIOS.length, total: 2 * SCENARIOS.length });
    // The one that peeked read nothing: no classmate's file, no scenario reached its output.
    expect(byName(all, 'peeks').results.tests[0]!.output).toBe('peeked at nothing\n');
  });

  it('fails every hostile submission, each with a sentence that says what it did', async () => {
    const all = (await doc).submissions;
    for (const [name, said] of Object.entries(HOSTILE)) {
      const submission = byName(all, name);
      expect(submission.score.passed, name).toBe(0);
      expect((submission.results.tests[0]!.message ?? '').split('\n')[0], name).toMatch(said);
    }
  });

  it("keeps the grade's files the grade's: the JSON and the JUnit as written at its end, every page and results.json there", async () => {
    const written = await atEnd;
    await new Promise((resolve) => setTimeout(resolve, 1500)); // time for anything left waiting for the grader to exit
    expect(readFileSync(files.json, 'utf8')).toBe(written.json);
    expect(readFileSync(files.junit, 'utf8')).toBe(written.junit);
    expect(written.json).not.toContain('FORGED');
    expect(written.junit).not.toMatch(ACTS);
    expect([...written.junit.matchAll(/<testsuite /g)]).toHaveLength(Object.keys(HOSTILE).length + CORRECT.length);
    expect(readdirSync(files.results).sort()).toEqual(Object.keys(HOSTILE).concat(CORRECT).sort());
    expect(existsSync(join(files.html, 'index.html'))).toBe(true);
    for (const page of readdirSync(files.html)) expect(readFileSync(join(files.html, page), 'utf8'), page).not.toMatch(ACTS);
  });

  it('leaves the checkout byte-identical, nothing running and nothing in the temporary folder', async () => {
    await graded;
    const after = checkout();
    expect([...after].filter(([path, hash]) => before.get(path) !== hash).map(([path]) => path)).toEqual([]);
    expect(after.size).toBe(before.size);
    await expect.poll(() => processesOf(tmp), { timeout: 5000 }).toEqual([]);
    await expect.poll(() => readdirSync(tmp), { timeout: 5000 }).toEqual([]);
  });
});

describe.skipIf(asRoot)('a grade where faultlab is not root', () => {
  it('says once, plainly, which walls its boxes lacked', async () => {
    const work = tempFolder('not-root');
    const graded = await grade(['grade', join(LEARNERS, 'solution', 'LearnerRunner.ts'), '--scenarios', 'read_only', '--no-explore'], work, work);
    expect(graded.stderr.split('\n').filter((line) => line.startsWith('faultlab grade: the submissions run without '))).toHaveLength(1);
    expect(graded.stderr).toContain('a user of their own (faultlab is not root)');
  });
});
