/**
 * `faultlab grade` as learners and teachers meet it: the report, the hint ladder, a folder of submissions,
 * the files it writes, and exit codes that mean something (0 all passed, 1 something failed, 2 bad input).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { faultlab, invariantTitle, ROOT } from './helpers.js';
import { parseXml } from './xmlParser.js';

const tmp = mkdtempSync(join(tmpdir(), 'faultlab-grade-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('faultlab grade with no file: the stub as shipped', () => {
  const graded = faultlab(['grade']);

  it('exits 1 with 0/17, explaining the first failure in full and naming the other sixteen', async () => {
    const { exit, stdout } = await graded;
    expect(exit).toBe(1);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('faultlab grade · src/runner/LearnerRunner.ts · 17 scenarios · seed 42');
    expect(lines[1]).toBe('  ✘  1 happy_path                 NotImplementedError at step 1');
    expect(stdout).toContain('not implemented yet: execute');
    expect(stdout).toContain('       replay    npx faultlab run scenarios/happy_path.yaml --runner src/runner/LearnerRunner.ts\n');
    expect(lines.filter((l) => l.endsWith('NotImplementedError at step 1 — the same as happy_path'))).toHaveLength(16);
    expect(stdout).toContain('  score 0/17 — none passes yet\n');
    expect(stdout).toContain('  hint 1 of 3 · NotImplementedError at step 1 (happy_path and 16 more)\n');
    expect(stdout).toContain('  more: npm run grade -- --hint 2\n');
  });
});

describe('the hint ladder', () => {
  it('--hint 2 adds the second hint and points to the third', async () => {
    const { stdout } = await faultlab(['grade', 'test/fixtures/learners/RetriesContractErrors.ts', '--hint', '2']);
    expect(stdout).toContain(`  hints 1–2 of 3 · ${invariantTitle(5)} (payload_conflict and 3 more)\n`);
    expect(stdout).toContain('    1. Which errors does your step retry?');
    expect(stdout).toContain('    2. Retry only a TransientError');
    expect(stdout).toContain('  more: npx faultlab grade test/fixtures/learners/RetriesContractErrors.ts --hint 3\n');
  });

  it('--hint 3 ends with code and the lesson', async () => {
    const { stdout } = await faultlab(['grade', 'test/fixtures/learners/NoBudgetCheck.ts', '--hint', '3']);
    expect(stdout).toContain('    3. The same two lines in both places');
    expect(stdout).toContain("           return this.finalize(state, 'budget_exhausted');\n");
    expect(stdout).toContain('  that is the last hint; the lesson has the rest: lessons/06-which-errors-to-retry.md#budgets-attempts-retries-and-calls\n');
  });
});

describe('a correct runner', () => {
  it('exits 0 with 17/17 and no hint', async () => {
    const { exit, stdout } = await faultlab(['grade', 'test/fixtures/learners/Correct.ts']);
    expect(exit).toBe(0);
    expect(stdout.match(/^ {2}✔ /gm)).toHaveLength(17);
    expect(stdout).toContain('  score 17/17 — every scenario holds, every invariant with it.\n');
    expect(stdout).not.toContain('hint');
  });
});

describe("a teacher's folder of submissions", () => {
  const json = join(tmp, 'results.json');
  const junit = join(tmp, 'results.xml');
  const graded = faultlab(['grade', 'test/fixtures/learners/class', '--json', json, '--junit', junit]);

  it('grades each file and each sub-folder with a LearnerRunner.ts, and sums them up', async () => {
    const { exit, stdout } = await graded;
    expect(exit).toBe(1);
    expect(stdout).toContain('\n  3 submissions\n    17/17  test/fixtures/learners/class/alice.ts\n    13/17  test/fixtures/learners/class/bob.ts\n    13/17  test/fixtures/learners/class/carol/LearnerRunner.ts\n');
    expect(stdout).toContain('  more: npx faultlab grade test/fixtures/learners/class/bob.ts --hint 2\n');
    expect(stdout).toContain(`  wrote ${json} (Exercism results.json v3) and ${junit} (JUnit XML)\n`);
  });

  it('writes one results.json entry and one testsuite per submission', async () => {
    await graded;
    const results = JSON.parse(readFileSync(json, 'utf8')) as { submissions: Array<{ submission: string; results: { status: string; tests: unknown[] } }> };
    expect(results.submissions.map((s) => [s.submission, s.results.status, s.results.tests.length])).toEqual([
      ['test/fixtures/learners/class/alice.ts', 'pass', 17],
      ['test/fixtures/learners/class/bob.ts', 'fail', 17],
      ['test/fixtures/learners/class/carol/LearnerRunner.ts', 'fail', 17],
    ]);
    const root = parseXml(readFileSync(junit, 'utf8'));
    expect(root.attributes).toMatchObject({ tests: '51', failures: '8', errors: '0' });
  });
});

describe('held-out scenarios', () => {
  it('--scenarios DIR grades against the teacher’s own files instead of the 17', async () => {
    const { exit, stdout } = await faultlab(['grade', 'test/fixtures/learners/NoBudgetCheck.ts', '--scenarios', 'test/fixtures/scenarios/heldout']);
    expect(exit).toBe(1);
    expect(stdout).toContain('faultlab grade · test/fixtures/learners/NoBudgetCheck.ts · 1 scenario · seed 42');
    expect(stdout).toContain(`  ✘  1 retry_over_budget          ${invariantTitle(2)}\n`);
    expect(stdout).toContain('replay    npx faultlab run test/fixtures/scenarios/heldout/retry_over_budget.yaml --runner test/fixtures/learners/NoBudgetCheck.ts');
    expect(stdout).toContain('  more: npx faultlab grade test/fixtures/learners/NoBudgetCheck.ts --scenarios test/fixtures/scenarios/heldout --hint 2');
  });

  it('--seed carries into every replay command', async () => {
    const { stdout } = await faultlab(['grade', 'test/fixtures/learners/NoBudgetCheck.ts', '--seed', '7', '--scenarios', 'budget_exhausted']);
    expect(stdout).toContain('· 1 scenario · seed 7');
    expect(stdout).toContain('--runner test/fixtures/learners/NoBudgetCheck.ts --seed 7\n');
  });
});

describe('bad input exits 2 and says what is wrong', () => {
  it.each([
    [['grade', 'no/such/Runner.ts'], 'no/such/Runner.ts: no such file or folder'],
    [['grade', '--hint', '4'], '--hint must be an integer from 1 to 3, got "4"'],
    [['grade', '--timeout', 'soon'], '--timeout must be an integer from 1 to'],
    [['grade', '--seed', 'x'], '--seed must be an integer, got "x"'],
    [['grade', '--frobnicate'], "Unknown option '--frobnicate'"],
  ])('%j', async (argv, message) => {
    const { exit, stdout, stderr } = await faultlab(argv);
    expect(exit).toBe(2);
    expect(stderr).toContain(message);
    expect(stdout).toBe('');
  });

  it('a folder without submissions', async () => {
    const empty = join(tmp, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'notes.md'), 'nothing to grade\n');
    const { exit, stderr } = await faultlab(['grade', empty]);
    expect(exit).toBe(2);
    expect(stderr).toContain('a folder with no submissions in it');
  });

  it('an invalid held-out scenario, with its file, line and field', async () => {
    const dir = join(tmp, 'bad-scenarios');
    mkdirSync(dir);
    writeFileSync(join(dir, 'bad.yaml'), readFileSync(join(ROOT, 'scenarios', 'happy_path.yaml'), 'utf8').replace('max_calls: 8', 'max_calls: many'));
    const { exit, stderr } = await faultlab(['grade', 'test/fixtures/learners/Correct.ts', '--scenarios', dir]);
    expect(exit).toBe(2);
    expect(stderr).toMatch(/bad\.yaml:\d+:\d+: task\.max_calls/);
  });
});

describe('the installed command', () => {
  it('grades through bin/faultlab.js with the compiled worker (run `npm run build` first)', () => {
    const result = spawnSync(process.execPath, ['bin/faultlab.js', 'grade', 'test/fixtures/learners/NewKeyPerAttempt.ts', '--scenarios', 'lost_reply'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`  ✘  5 lost_reply                 ${invariantTitle(3)}\n`);
    expect(result.stdout).toContain('  score 0/1 — none passes yet\n');
  });
});
