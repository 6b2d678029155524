/**
 * `faultlab grade` as learners and teachers meet it: the report, the hint ladder, a class graded in one command,
 * the files it writes (checked before anything is graded), and exit codes that mean something (0 all passed,
 * 1 something failed, 2 bad input). Every submission here is a pinned copy: the live src/runner/LearnerRunner.ts
 * is only ever named, never judged.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { className } from '../../src/grade/reporters/junit.js';
import { classmate, faultlab, mistake, ROOT, SOLUTION, STUB, submissionsFolder, tmp } from './helpers.js';
import { parseXml } from './xmlParser.js';

const out = tmp('grade-cli');
const rel = (path: string) => relative(ROOT, path);

describe('the stub as shipped (a pinned copy)', () => {
  const graded = faultlab(['grade', rel(STUB)]);

  it('exits 1 with 0/40 on the graded set, explaining the first failure in full and naming the other nineteen', async () => {
    const { exit, stdout } = await graded;
    expect(exit).toBe(1);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('faultlab grade · test/fixtures/learners/stub/LearnerRunner.ts · 20 scenarios · seed 42');
    expect(lines[1]).toBe('  ✘  1 happy_path                 NotImplementedError at step 1');
    expect(stdout).toContain('not implemented yet: execute');
    expect(stdout).toContain('       replay    npx faultlab run scenarios/happy_path.yaml --runner test/fixtures/learners/stub/LearnerRunner.ts\n');
    expect(lines.filter((l) => l.endsWith('NotImplementedError at step 1 — the same as happy_path'))).toHaveLength(19);
    expect(stdout).toContain('  with one added fault at every point (depth 1): every invariant must still hold\n');
    expect(stdout).not.toContain('fault coverage'); // nothing was explored: no coverage of 0 schedules
    expect(stdout).toContain('  score 0/40 — as written 0/20 · with added faults 0/20 · none passes yet\n');
    expect(stdout).toContain('  hint 1 of 3 · NotImplementedError at step 1 (happy_path and 19 more)\n');
    expect(stdout).toContain('  more: npx faultlab grade test/fixtures/learners/stub/LearnerRunner.ts --hint 2\n');
  });

  it('with no file grades src/runner/LearnerRunner.ts, whatever it holds now', async () => {
    const { stdout } = await faultlab(['grade', '--scenarios', 'read_only', '--no-explore']);
    expect(stdout.split('\n')[0]).toBe('faultlab grade · src/runner/LearnerRunner.ts · 1 scenario · seed 42');
  });
});

describe('the hint ladder', () => {
  it('--hint 2 adds the second hint and points to the third', async () => {
    const { stdout } = await faultlab(['grade', 'test/fixtures/learners/RetriesContractErrors.ts', '--no-explore', '--hint', '2']);
    expect(stdout).toContain('  hints 1–2 of 3 · inv5 · a ContractError retried (payload_conflict and 3 more)\n');
    expect(stdout).toContain('    1. Which errors does your step retry?');
    expect(stdout).toContain('    2. Retry only a TransientError');
    expect(stdout).toContain('  more: npx faultlab grade test/fixtures/learners/RetriesContractErrors.ts --no-explore --hint 3\n');
  });

  it('--hint 3 ends with code and the lesson', async () => {
    const { stdout } = await faultlab(['grade', 'test/fixtures/learners/NoBudgetCheck.ts', '--no-explore', '--hint', '3']);
    expect(stdout).toContain('    3. The same two lines in both places');
    expect(stdout).toContain("           return this.finalize(state, 'budget_exhausted');\n");
    expect(stdout).toContain('  that is the last hint; the lesson has the rest: lessons/06-which-errors-to-retry.md#budgets-attempts-retries-and-calls\n');
  });
});

describe('a correct runner', () => {
  it('exits 0 with 20/20 as written (the graded set) and no hint', async () => {
    const { exit, stdout } = await faultlab(['grade', rel(SOLUTION), '--no-explore']);
    expect(exit).toBe(0);
    expect(stdout.match(/^ {2}✔ /gm)).toHaveLength(20);
    expect(stdout).toContain('  score 20/20 — every scenario holds, every invariant with it.\n');
    expect(stdout).not.toContain('hint');
  });
});

/**
 * The class of the "done when": a correct step, five classic mistakes, and three submissions that try to
 * break the grader — each handed in as `submissions/<name>/LearnerRunner.ts`, an unchanged copy, far from the
 * package — on three scenarios where each mistake shows. (Grading nine submissions takes a while.)
 */
describe("a teacher's class, graded in one command", { timeout: 240_000 }, () => {
  const folder = submissionsFolder({
    correct: SOLUTION,
    'budget-after-call': mistake('budget-checked-late'),
    'catches-everything': classmate('catches-everything'),
    'attempt-started-late': mistake('attempt-saved-late'),
    'new-key': mistake('new-key-per-attempt'),
    'contract-retried': mistake('contract-error-retried'),
    'kills-itself': classmate('kills-itself'),
    sleeps: classmate('sleeps'),
    forges: classmate('forges'),
  });
  const json = join(out, 'class.json');
  const junit = join(out, 'class.xml');
  const results = join(out, 'results');
  const scenarios = ['budget_exhausted', 'crash_after_commit', 'payload_conflict'].flatMap((id) => ['--scenarios', id]);
  const graded = faultlab(['grade', folder, ...scenarios, '--timeout', '1000', '--json', json, '--junit', junit, '--results-dir', results, '--replays', join(out, 'replays')], out);

  const EXPECTED: Record<string, [string, string, string, string]> = {
    correct: ['3/3', '3/3', '6/6', ''],
    'budget-after-call': ['3/3', '2/3', '5/6', 'inv2 · the budget checked late, or never (budget_exhausted, with added faults)'],
    'catches-everything': ['1/3', '0/3', '1/6', 'a crash caught by the step (crash_after_commit)'],
    // Its save after the answer still holds the action pending: invariant 3 after every step sees it in every scenario.
    'attempt-started-late': ['0/3', '0/3', '0/6', 'inv3 · an attempt sent before it was saved (budget_exhausted)'],
    'new-key': ['2/3', '1/3', '3/6', 'inv3 · a new key on a retry (crash_after_commit)'],
    'contract-retried': ['2/3', '1/3', '3/6', 'inv5 · a ContractError retried (payload_conflict)'],
    'kills-itself': ['2/3', '0/3', '2/6', 'the process ended in step 2 (budget_exhausted)'],
    sleeps: ['2/3', '0/3', '2/6', 'timeout in step 2 (budget_exhausted)'],
  };

  it('prints one line per submission as each is graded, then a table: every verdict its own', async () => {
    const { exit, stdout, stderr } = await graded;
    expect(stderr).toBe('');
    expect(exit).toBe(1);
    const [streamed, table] = stdout.split('\n  9 submissions · 3 scenarios · seed 42\n') as [string, string];
    // first the number of submissions, then one line each as it finishes, with the count (test/grade/progress.test.ts)
    expect(streamed.split('\n')[0]).toMatch(/^ {2}grading 9 submissions, [1-4] at a time$/);
    expect(streamed.split('\n').filter((l) => /^ {2}\[\d\/9 graded[^\]]*\] [✔✘] /.test(l))).toHaveLength(9);
    expect(streamed).toMatch(/^ {2}\[\d\/9 graded[^\]]*\] ✔ correct {2}6\/6 \(3\/3 as written · 3\/3 with added faults\)$/m);
    for (const [name, [asWritten, explored, score, problem]] of Object.entries(EXPECTED)) {
      const row = table.split('\n').find((l) => l.slice(4).startsWith(`${name} `));
      expect(row, name).toBeDefined();
      expect(row!.slice(4).split(/ {2,}/).filter(Boolean), name).toEqual([name, asWritten, explored, score, ...(problem ? [problem] : [])]);
    }
    const forges = table.split('\n').find((l) => l.slice(4).startsWith('forges '))!;
    expect(forges).toMatch(/^ {2}✘ forges +0\/3 +0\/3 +0\/6 /); // nothing it forged counted
    expect(table).toContain('  1 of 9 passed everything');
  });

  it("writes the class's JSON and JUnit whole: every submission, every test, the killed and the hung included", async () => {
    await graded;
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { submissions: Array<{ name: string; submission: string; score: { passed: number; total: number }; results: { status: string; tests: unknown[] } }> };
    expect(doc.submissions.map((s) => s.name).sort()).toEqual(Object.keys(EXPECTED).concat('forges').sort());
    for (const s of doc.submissions) {
      expect(s.results.tests, s.name).toHaveLength(6);
      expect(s.submission).toBe(join(folder, s.name, 'LearnerRunner.ts'));
      if (s.name in EXPECTED) expect(`${s.score.passed}/${s.score.total}`, s.name).toBe(EXPECTED[s.name]![2]);
    }
    expect(doc.submissions.find((s) => s.name === 'correct')!.results.status).toBe('pass');
    const root = parseXml(readFileSync(junit, 'utf8'));
    expect(root.attributes.tests).toBe('54');
    const suites = root.children.filter((c) => c.name === 'testsuite');
    expect(suites).toHaveLength(9);
    for (const suite of suites) {
      const cases = suite.children.filter((c) => c.name === 'testcase');
      expect(cases).toHaveLength(6);
      // one classname per submission, whatever its layout: …submissions.<name>
      expect(new Set(cases.map((c) => c.attributes.classname))).toEqual(new Set([className(join(folder, suite.attributes.name!, 'LearnerRunner.ts'))]));
      expect(cases[0]!.attributes.classname).toMatch(new RegExp(`\\.submissions\\.${suite.attributes.name}$`));
    }
  });

  it("writes each submission's own results.json in Exercism's layout", async () => {
    await graded;
    const mine = JSON.parse(readFileSync(join(results, 'new-key', 'results.json'), 'utf8')) as { version: number; status: string; tests: Array<{ name: string; status: string }> };
    expect([mine.version, mine.status, mine.tests.length]).toEqual([3, 'fail', 6]);
    expect(mine.tests.map((t) => t.name)).toContain('crash_after_commit with one added fault at every point: Crash after the commit: recover from the log');
  });

  it('gives each submission graded alone the same verdict', async () => {
    const alone = await faultlab(['grade', join(folder, 'new-key'), ...scenarios, '--replays', join(out, 'alone')], out);
    expect(alone.exit).toBe(1);
    expect(alone.stdout).toContain('  score 3/6 — as written 2/3 · with added faults 1/3\n');
    const correct = await faultlab(['grade', join(folder, 'correct'), ...scenarios], out);
    expect(correct.exit).toBe(0);
    expect(correct.stdout).toContain('  score 6/6 — every scenario holds, as written and with one added fault at every point.\n');
  });
});

describe('a class summary only', () => {
  it('--summary prints the table and, per submission, only how far the grade has got', async () => {
    const folder = submissionsFolder({ alice: SOLUTION, bob: mistake('lost-reply-as-failure') });
    const { exit, stdout } = await faultlab(['grade', folder, '--scenarios', 'lost_reply', '--no-explore', '--summary'], out);
    expect(exit).toBe(1);
    const [first, one, two, ...table] = stdout.split('\n');
    expect([first, one, two]).toEqual(['  grading 2 submissions, 2 at a time', expect.stringMatching(/^ {2}1\/2 graded · about \d+ s left$/), '  2/2 graded']);
    expect(table.join('\n')).toBe(
      [
        '',
        '  2 submissions · 1 scenario · seed 42',
        '    submission  as written  added faults  score  first problem',
        '  ✔ alice              1/1             -    1/1',
        '  ✘ bob                0/1             -    0/1  a lost reply treated as final (lost_reply)',
        '',
        '  1 of 2 passed everything',
        '',
      ].join('\n'),
    );
  });
});

describe('held-out scenarios', () => {
  it('--scenarios DIR grades against the teacher’s own files instead of the 17', async () => {
    const { exit, stdout } = await faultlab(['grade', 'test/fixtures/learners/NoBudgetCheck.ts', '--scenarios', 'test/fixtures/scenarios/heldout', '--replays', join(out, 'heldout')]);
    expect(exit).toBe(1);
    expect(stdout).toContain('faultlab grade · test/fixtures/learners/NoBudgetCheck.ts · 1 scenario · seed 42');
    expect(stdout).toContain('  ✘  1 retry_over_budget          inv2 · the budget checked late, or never\n');
    expect(stdout).toContain('replay    npx faultlab run test/fixtures/scenarios/heldout/retry_over_budget.yaml --runner test/fixtures/learners/NoBudgetCheck.ts');
    expect(stdout).toContain('  more: npx faultlab grade test/fixtures/learners/NoBudgetCheck.ts --scenarios test/fixtures/scenarios/heldout --hint 2');
  });

  it('--held-out adds the teacher’s files to the scenarios graded, numbered after them', async () => {
    const { stdout } = await faultlab(['grade', 'test/fixtures/learners/NoBudgetCheck.ts', '--scenarios', 'budget_exhausted', '--held-out', 'test/fixtures/scenarios/heldout', '--no-explore']);
    expect(stdout).toContain('· 2 scenarios · seed 42');
    expect(stdout).toContain('  ✘ 15 budget_exhausted           inv2 · the budget checked late, or never\n');
    expect(stdout).toContain('  ✘  2 retry_over_budget          inv2 · the budget checked late, or never\n');
    expect(stdout).toContain('  more: npx faultlab grade test/fixtures/learners/NoBudgetCheck.ts --scenarios budget_exhausted --held-out test/fixtures/scenarios/heldout --no-explore --hint 2\n');
  });

  it("keeps a held-out scenario's faults out of the learner's results.json unless the teacher asks", async () => {
    const hidden = join(out, 'hidden.json');
    const shown = join(out, 'shown.json');
    await faultlab(['grade', 'test/fixtures/learners/Correct.ts', '--scenarios', 'test/fixtures/scenarios/heldout', '--json', hidden]);
    await faultlab(['grade', 'test/fixtures/learners/Correct.ts', '--scenarios', 'test/fixtures/scenarios/heldout', '--json', shown, '--reveal-faults']);
    const codes = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { tests: Array<{ test_code: string }> }).tests.map((t) => t.test_code);
    const hiddenNote = "# a held-out scenario: its faults are the teacher's to show";
    expect(codes(hidden)).toEqual([
      `npx faultlab run test/fixtures/scenarios/heldout/retry_over_budget.yaml --runner test/fixtures/learners/Correct.ts\n${hiddenNote}`,
      `npx faultlab run test/fixtures/scenarios/heldout/retry_over_budget.yaml --runner test/fixtures/learners/Correct.ts\n${hiddenNote}`,
    ]);
    expect(codes(shown)[0]).toContain('# transient at reserve attempt 1 → budget_exhausted · calls 4 · ledger 0 · stock camera 3');
    expect(codes(shown)[1]).toContain('# one added fault at every point (its own transient at reserve attempt 1 kept) → every invariant holds');
  });

  it('--seed carries into every replay command', async () => {
    const { stdout } = await faultlab(['grade', 'test/fixtures/learners/NoBudgetCheck.ts', '--seed', '7', '--scenarios', 'budget_exhausted', '--no-explore']);
    expect(stdout).toContain('· 1 scenario · seed 7');
    expect(stdout).toContain('--runner test/fixtures/learners/NoBudgetCheck.ts --seed 7\n');
  });
});

describe('bad input exits 2, says what is wrong, and grades nothing', () => {
  it.each([
    [['grade', 'no/such/Runner.ts'], 'no/such/Runner.ts: no such file or folder'],
    [['grade', '--hint', '4'], '--hint must be an integer from 1 to 3, got "4"'],
    [['grade', '--timeout', 'soon'], '--timeout must be an integer from 1 to'],
    [['grade', '--timeout', '2147483648'], '--timeout must be an integer from 1 to 86400000, got "2147483648"'],
    [['grade', '--seed', 'x'], '--seed must be an integer, got "x"'],
    [['grade', '--frobnicate'], "Unknown option '--frobnicate'"],
    [['grade', rel(SOLUTION), '--json', 'no/such/folder/results.json'], '--json no/such/folder/results.json: no folder no/such/folder to write it in'],
    [['grade', rel(SOLUTION), '--junit', 'test'], '--junit test: is a folder, not a file'],
    [['grade', rel(SOLUTION), '--results-dir', 'package.json/x'], '--results-dir package.json/x: cannot write there'],
    [['grade', rel(SOLUTION), '--replays', 'package.json/replays'], '--replays package.json/replays: cannot write there (package.json is a file)'],
  ])('%j', async (argv, message) => {
    const { exit, stdout, stderr } = await faultlab(argv);
    expect(exit).toBe(2);
    expect(stderr).toContain(message);
    expect(stdout).toBe('');
  });

  it('a folder without submissions', async () => {
    const empty = join(out, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'notes.md'), 'nothing to grade\n');
    const { exit, stderr } = await faultlab(['grade', empty]);
    expect(exit).toBe(2);
    expect(stderr).toContain('a folder with no submissions in it');
  });

  it('an invalid held-out scenario, with its file, line and field', async () => {
    const dir = join(out, 'bad-scenarios');
    mkdirSync(dir);
    writeFileSync(join(dir, 'bad.yaml'), readFileSync(join(ROOT, 'scenarios', 'happy_path.yaml'), 'utf8').replace('max_calls: 8', 'max_calls: many'));
    const { exit, stderr } = await faultlab(['grade', rel(SOLUTION), '--scenarios', dir]);
    expect(exit).toBe(2);
    expect(stderr).toMatch(/bad\.yaml:\d+:\d+: task\.max_calls/);
  });
});

describe('the installed command', () => {
  it('grades through bin/faultlab.js with the compiled grading thread and learner process (run `npm run build` first)', () => {
    const replays = join(out, 'installed');
    const result = spawnSync(process.execPath, ['bin/faultlab.js', 'grade', mistake('new-key-per-attempt'), '--scenarios', 'lost_reply', '--replays', replays], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('  ✘  5 lost_reply                 inv3 · a new key on a retry\n');
    expect(result.stdout).toContain('  score 0/2 — as written 0/1 · with added faults 0/1 · none passes yet\n');
    expect(readFileSync(join(replays, 'lost_reply__inv3.yaml'), 'utf8')).toContain('id: lost_reply__inv3');
  });
});
