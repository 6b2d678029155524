/**
 * The grader on real learner files, each run in a process of its own: a correct independent runner scores
 * 17/17 as written (34/34 with every scenario explored), the stub 0/17, and each broken runner fails exactly
 * the scenarios its mistake reaches — with the mistake and the invariant that explain it. A hang, a process
 * that dies and a file that will not load cost only what they must.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../src/scenario/load.js';
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { failing, gradeSubmission, learner, wordedAll, wordedExplored, ROOT, SOLUTION, STUB, submissionsFolder } from './helpers.js';

const scenarios = (...ids: string[]) => loadScenarios(ids);
const tmp = mkdtempSync(join(tmpdir(), 'faultlab-grade-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function tmpFile(name: string, text: string): string {
  const file = join(tmp, name);
  writeFileSync(file, text);
  return file;
}

describe('a correct learner written independently of ReferenceRunner', () => {
  it('scores 17/17, every scenario passing with the figures of docs/spec.md §6', async () => {
    const grade = await wordedAll(learner('Correct'));
    expect(grade.runnerName).toBe('LearnerRunner');
    expect(grade.loadError).toBeNull();
    expect([grade.passed, grade.total]).toEqual([17, 17]);
    expect(grade.scenarios.map((s) => s.figures)).toContain('succeeded · calls 5 · ledger 2 · stock camera 1'); // retry_after_version_moved
    expect(grade.scenarios.every((s) => s.problem === null && s.divergence === null)).toBe(true);
  });
});

describe('a solved LearnerRunner.ts, handed in unchanged from a folder of its own', () => {
  it('scores 34/34: every scenario as written, and every one with one added fault at every point', async () => {
    const folder = submissionsFolder({ alice: SOLUTION });
    const grade = await gradeSubmission(join(folder, 'alice', 'LearnerRunner.ts'), { scenarios: loadScenarios(), cwd: folder, replayDir: null });
    expect(grade.loadError).toBeNull();
    expect(grade.name).toBe('alice');
    expect([grade.passed, grade.total]).toEqual([34, 34]);
    const schedules = grade.explored.reduce((n, g) => n + g.coverage!.schedules, 0);
    expect(schedules).toBe(834); // as faultlab explore makes them for the reference: 851 runs, the 17 as written among them
    expect(grade.explored.find((g) => g.id === 'lost_reply')!.figures).toBe('58 schedules, none broke an invariant — the reference\'s runs'); // held to the reference's exploration: every run answered as the reference does
  });
});

describe('the stub as shipped (a pinned copy)', () => {
  it('scores 0/17: every scenario errors with "not implemented yet: execute" at step 1, in its own file and line', async () => {
    const grade = await wordedAll(STUB);
    expect([grade.passed, grade.total]).toEqual([0, 17]);
    for (const scenario of grade.scenarios) {
      expect(scenario.status).toBe('error');
      expect(scenario.problem?.id).toBe('not_implemented');
      expect(scenario.problem?.message).toMatch(/^the runner threw NotImplementedError at step 1 \(test\/fixtures\/learners\/stub\/LearnerRunner\.ts:\d+\): not implemented yet: execute$/);
    }
  });

  it('says what the reference did where the stub threw', async () => {
    const happy = (await wordedAll(STUB)).scenarios[0]!;
    expect(happy.divergence).toEqual({
      step: 1,
      text: 'step 1: the reference saved prepared (search_docs(query=camera)), yours threw NotImplementedError: not implemented yet: execute',
    });
    expect(happy.replay).toBe('npx faultlab run scenarios/happy_path.yaml --runner test/fixtures/learners/stub/LearnerRunner.ts');
    expect(happy.lesson).toBe('lessons/08-the-exercise.md#the-contract-of-step');
  });

  it('is not explored: a scenario must run to its end as written first', async () => {
    const grade = await wordedExplored(STUB, ['happy_path']);
    expect([grade.passed, grade.total]).toEqual([0, 2]);
    expect(grade.explored[0]).toMatchObject({ part: 'explored', status: 'error', problem: { id: 'not_explored', message: 'not explored: the scenario as written did not run to its end' } });
  });
});

describe('broken learner 1: a new idempotency key on every attempt', () => {
  it('fails exactly the four scenarios where a reserve is retried, each diagnosed as a new key, on invariant 3', async () => {
    const grade = await wordedAll(learner('NewKeyPerAttempt'));
    expect(failing(grade)).toEqual(['lost_reply', 'crash_after_commit', 'crash_before_commit', 'retry_after_version_moved']);
    for (const scenario of grade.scenarios.filter((s) => s.status !== 'pass')) {
      expect(scenario.status).toBe('fail');
      expect(scenario.problem).toMatchObject({ id: 'new_key_per_attempt', title: 'inv3 · a new key on a retry', check: 'inv3_same_key_same_args' });
      expect(scenario.problem?.message).toContain(`used key ${scenario.id}:reserve:call-5, but its first attempt (call 4) had ${scenario.id}:reserve:call-4`);
      expect(scenario.problem?.message).toContain('a retry must reuse the key made when the action was prepared');
    }
  });

  it('after a lost reply ends in tool_error: the new key meets the moved version', async () => {
    const lost = (await wordedAll(learner('NewKeyPerAttempt'))).scenarios.find((s) => s.id === 'lost_reply')!;
    expect(lost.wrongFigures).toEqual(['status expected succeeded, got tool_error', 'pending expected null, got reserve']);
    expect(lost.divergence?.text).toBe(
      'step 4 (#12): both saved attempt_started, but your reserve has a new key lost_reply:reserve:call-4, the reference kept lost_reply:reserve:2872d1b4…',
    );
    expect(lost.replay).toBe('npx faultlab run scenarios/lost_reply.yaml --runner test/fixtures/learners/NewKeyPerAttempt.ts');
    expect(lost.lesson).toBe('lessons/02-idempotency-keys.md#reused-unchanged-by-every-retry');
  });

  it('after a crash before the commit gets every figure right and still breaks invariant 3 (docs/spec.md §7: only 3 can see it)', async () => {
    const crash = (await wordedAll(learner('NewKeyPerAttempt'))).scenarios.find((s) => s.id === 'crash_before_commit')!;
    expect(crash.wrongFigures).toEqual([]);
    expect(crash.figures).toBe('succeeded · calls 5 · ledger 1 · stock camera 2');
    expect(crash.problem?.check).toBe('inv3_same_key_same_args');
  });
});

describe('broken learner 2: retries a ContractError', () => {
  it('fails exactly the four scenarios that end in a refusal, each diagnosed as a retried ContractError, on invariant 5', async () => {
    const grade = await wordedAll(learner('RetriesContractErrors'));
    expect(failing(grade)).toEqual(['payload_conflict', 'stale_version', 'insufficient_stock', 'unknown_item']);
    const codes = { payload_conflict: 'PAYLOAD_CONFLICT', stale_version: 'STALE_VERSION', insufficient_stock: 'INSUFFICIENT_STOCK', unknown_item: 'UNKNOWN_ITEM' };
    for (const scenario of grade.scenarios.filter((s) => s.status !== 'pass')) {
      expect(scenario.problem).toMatchObject({ id: 'contract_error_retried', title: 'inv5 · a ContractError retried' });
      expect(scenario.problem?.message).toContain(`attempt 2) sent again the very request the tool refused with ContractError ${codes[scenario.id as keyof typeof codes]}: a refusal is definite`);
      expect(scenario.wrongFigures[0]).toBe('status expected tool_error, got retry_exhausted');
    }
  });

  it('keeps a long refusal short in the divergence: the problem line has it whole', async () => {
    const conflict = (await wordedAll(learner('RetriesContractErrors'))).scenarios.find((s) => s.id === 'payload_conflict')!;
    const text = conflict.divergence!.text;
    expect(text).toMatch(/^step 5 \(#16\): the reference saved tool_error \(PAYLOAD_CONFLICT: .+\), yours saved transient:PAYLOAD_CONFLICT: .+ \(reserve pending\)$/);
    expect(text.length).toBeLessThanOrEqual(200);
  });

  it('burns two extra calls on a stale version before giving up', async () => {
    const stale = (await wordedAll(learner('RetriesContractErrors'))).scenarios.find((s) => s.id === 'stale_version')!;
    expect(stale.wrongFigures).toEqual(['status expected tool_error, got retry_exhausted', 'calls expected 4, got 6']);
    expect(stale.divergence?.text).toBe(
      'step 4 (#13): the reference saved tool_error (STALE_VERSION: expected version 0, found 1), yours saved transient:STALE_VERSION: expected version 0, found 1 (reserve pending)',
    );
  });
});

describe('broken learner 3: no budget check before an attempt', () => {
  it('fails only budget_exhausted among the 17, diagnosed as the budget checked late, with a fifth request on the wire', async () => {
    const grade = await wordedAll(learner('NoBudgetCheck'));
    expect(failing(grade)).toEqual(['budget_exhausted']);
    const budget = grade.scenarios.find((s) => s.id === 'budget_exhausted')!;
    expect(budget.problem).toMatchObject({ id: 'budget_checked_late', check: 'inv2_call_budget' });
    expect(budget.problem?.message).toBe(
      'call 5 (reserve attempt 1) was request 5 on the wire with max_calls 4: the budget must be checked before every attempt — a retry of an action already pending included',
    );
    expect(budget.wrongFigures).toEqual([
      'status expected budget_exhausted, got succeeded',
      'calls expected 4, got 5',
      'ledger expected 0, got 1',
      'stock camera expected 3, got 2',
    ]);
  });

  it('also fails a held-out scenario where the budget runs out between two attempts, which the correct learner passes', async () => {
    const heldOut = loadScenarios([join(ROOT, 'test', 'fixtures', 'scenarios', 'heldout')]);
    const [broken, correct] = await Promise.all([
      gradeSubmission(learner('NoBudgetCheck'), { scenarios: heldOut, cwd: ROOT, explore: false }),
      gradeSubmission(learner('Correct'), { scenarios: heldOut, cwd: ROOT, explore: false }),
    ]);
    expect(correct.passed).toBe(1);
    expect(broken.scenarios[0]).toMatchObject({ id: 'retry_over_budget', taskId: 1, status: 'fail', heldOut: true, problem: { id: 'budget_checked_late' } });
    expect(broken.scenarios[0]!.divergence?.text).toBe('step 5 (#14): the reference saved budget_exhausted, yours saved attempt_started (reserve attempt 2, call 5)');
  });
});

describe('beyond the 17: every scenario explored', () => {
  it('fails a budget checked after the call, which passes all 17 as written, with the smallest schedule and its replay file', async () => {
    const grade = await wordedExplored(join(ROOT, 'test', 'fixtures', 'learners', 'mistakes', 'budget-checked-late', 'LearnerRunner.ts'), ['budget_exhausted', 'happy_path']);
    expect(grade.scenarios.map((g) => g.status)).toEqual(['pass', 'pass']);
    const [budget, happy] = grade.explored;
    expect(happy).toMatchObject({ status: 'pass', figures: '50 schedules, none broke an invariant — the reference\'s runs' }); // the budget never binds there: every run is the reference's
    expect(budget).toMatchObject({ part: 'explored', status: 'fail', coverage: { schedules: 48, broke: 5 }, figures: '5 of 48 schedules broke a rule' });
    expect(budget!.problem).toMatchObject({ id: 'budget_checked_late', title: 'inv2 · the budget checked late, or never', check: 'inv2_call_budget' });
    expect(budget!.problem!.message).toMatch(/^budget_exhausted with transient at reserve attempt 1 call 4: call 5 \(reserve attempt 2\) was request 5 on the wire with max_calls 4/);
    expect(budget!.divergence?.text).toBe('step 5 (#14): the reference saved budget_exhausted, yours saved attempt_started (reserve attempt 2, call 5)');
    expect(budget!.lesson).toBe('lessons/06-which-errors-to-retry.md#budgets-attempts-retries-and-calls');
    const file = budget!.replayFile!;
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('  - kind: transient\n    at: {tool: reserve, attempt: 1, call: 4}');
    // What broke, in English and in its zh: block: the grader checks the learner's run again in Chinese.
    const words = parse(readFileSync(file, 'utf8')) as { explain: string; zh: { title: string; explain: string } };
    expect(words.explain).toContain('the runner put 5 requests on the wire with max_calls 4');
    expect(words.zh.title).toBe('探索所得：budget_exhausted 打破了“调用次数 <= max_calls，尝试次数如实计数，每一步之后都如此”');
    expect(words.explain).toMatch(/^Found by faultlab grade \(LearnerRunner in test\/fixtures\/learners\/mistakes\/budget-checked-late\/LearnerRunner.ts\): /);
    expect(words.zh.explain).toContain('由 faultlab grade（test/fixtures/learners/mistakes/budget-checked-late/LearnerRunner.ts 里的 LearnerRunner）发现');
    expect(words.zh.explain).toContain('Runner 向线路发出了 5 个请求，而 max_calls 是 4');
    expect(budget!.replay).toBe(`npx faultlab run ${file} --runner test/fixtures/learners/mistakes/budget-checked-late/LearnerRunner.ts`);
  });
});

describe('a step that never returns', () => {
  it('is stopped after the timeout with the step it hung in, and grading goes on with the next scenario', async () => {
    const grade = await gradeSubmission(learner('Looping'), { scenarios: scenarios('transient_read', 'happy_path'), cwd: ROOT, timeoutMs: 1000, explore: false });
    const [hung, next] = grade.scenarios;
    expect(hung).toMatchObject({ id: 'transient_read', status: 'error', problem: { id: 'timeout', title: 'timeout in step 2' } });
    expect(hung!.problem!.message).toBe(
      'no answer after 1000 ms: step 2 never returned — the grader stopped it (an endless loop, a blocking call, or a wait for something that never comes?)',
    );
    expect(hung!.divergence?.text).toMatch(/^step 2: in this step the reference saved prepared \(read_doc\(doc_id=camera-care\)\), .* yours never returned$/);
    expect(hung!.durationMs).toBeGreaterThanOrEqual(1000);
    expect(next).toMatchObject({ id: 'happy_path', status: 'pass' });
    expect([grade.passed, grade.total]).toEqual([1, 2]);
  });
});

describe('the determinism guard', () => {
  it('stops a step that calls Math.random, naming the call and the line, and leaves scenarios that never reach it alone', async () => {
    const grade = await gradeSubmission(learner('RandomKey'), { scenarios: scenarios('happy_path', 'read_only'), cwd: ROOT, explore: false });
    const [random, readOnly] = grade.scenarios;
    expect(random).toMatchObject({ status: 'error', problem: { id: 'determinism', title: 'DeterminismError at step 4' } });
    expect(random!.problem!.message).toMatch(/^the runner threw DeterminismError at step 4 \(test\/fixtures\/learners\/RandomKey\.ts:\d+\): step\(\) called Math\.random\(\): a runner must be deterministic/);
    expect(random!.lesson).toBe('lessons/08-the-exercise.md#exceptions-hangs-and-the-determinism-guard');
    expect(readOnly!.status).toBe('pass');
  });
});

describe('what the learner prints', () => {
  it('is kept with each scenario, apart from the report', async () => {
    const grade = await gradeSubmission(learner('Chatty'), { scenarios: scenarios('read_only'), cwd: ROOT, explore: false });
    const lines = grade.scenarios[0]!.output.trimEnd().split('\n');
    expect(lines).toHaveLength(3); // read_only takes three steps
    // Its colour codes arrive as text (src/box/frames.ts): no learner's escape code reaches a terminal.
    expect(lines[0]).toMatch(/^\\u001b\[33mstep\\u001b\[0m <calls 0> & "decisions" 0: ·+$/);
  });
});

describe('code that breaks more than a step', () => {
  it('a file that does not parse: every scenario errors with the compiler message, and nothing else runs', async () => {
    const file = tmpFile('Unparsable.ts', 'export class LearnerRunner {\n  step(state) { return state\n}\n');
    const grade = await gradeSubmission(file, { scenarios: scenarios('happy_path', 'read_only'), cwd: tmp, explore: false });
    expect(grade.runnerName).toBeNull();
    expect(grade.loadError?.message).toContain('Unparsable.ts:');
    expect(grade.scenarios.map((s) => [s.status, s.problem?.id])).toEqual([
      ['error', 'load_error'],
      ['error', 'load_error'],
    ]);
    expect(grade.scenarios[0]!.problem!.message).toMatch(/^could not load Unparsable\.ts: /);
  });

  it('a file that loops when it is imported: stopped at the load limit, every scenario an error, nothing explored', async () => {
    const file = tmpFile('LoadLoop.mjs', 'for (;;) {}\nexport class LearnerRunner { step(state) { return state; } }\n');
    const grade = await gradeSubmission(file, { scenarios: scenarios('read_only'), cwd: tmp, loadTimeoutMs: 1000, replayDir: null });
    expect(grade.loadError?.message).toBe('loading the file did not finish in time (does it run an endless loop when it is imported?)');
    expect(grade.scenarios[0]!.problem).toMatchObject({ id: 'load_error', message: 'could not load LoadLoop.mjs: loading the file did not finish in time (does it run an endless loop when it is imported?)' });
    expect(grade.explored[0]!.problem).toMatchObject({ id: 'not_explored', message: 'not explored: the file did not load' });
  });

  it('a file that exports no runner class: says what it does export', async () => {
    const file = tmpFile('NoRunner.mjs', 'export const answer = 42;\n');
    const grade = await gradeSubmission(file, { scenarios: scenarios('read_only'), cwd: tmp, explore: false });
    expect(grade.scenarios[0]!.problem!.message).toBe(
      `could not load NoRunner.mjs: NoRunner.mjs: no runner class found (a class with a step(state) method, or a worker with claim, finish and sweep); it exports answer`,
    );
  });

  it('a step that calls process.exit: that scenario errors with the reason, and the box goes on', async () => {
    const file = tmpFile('Exits.mjs', 'export class LearnerRunner { constructor() {} step(state) { if (state.task.id === "read_only") process.exit(3); return state; } }\n');
    const grade = await gradeSubmission(file, { scenarios: scenarios('read_only', 'happy_path'), cwd: tmp, explore: false });
    expect(grade.scenarios[0]).toMatchObject({ status: 'error', problem: { id: 'runner_error', title: 'RunnerExitError at step 1' } });
    expect(grade.scenarios[0]!.problem!.message).toContain('the runner called process.exit(3): a runner returns the state from step(); it never ends the process');
    // the second scenario: its runner returned the state unchanged until the step bound
    expect(grade.scenarios[1]).toMatchObject({ status: 'fail', problem: { id: 'inv7_run_terminates' } });
  });

  it('a step that kills its own process: that scenario errors, and the next one gets a fresh process', async () => {
    const file = tmpFile('Kills.mjs', 'export class LearnerRunner { constructor() {} step(state) { if (state.task.id === "read_only") process.kill(process.pid, "SIGKILL"); return state; } }\n');
    const grade = await gradeSubmission(file, { scenarios: scenarios('read_only', 'happy_path'), cwd: tmp, explore: false });
    expect(grade.scenarios[0]).toMatchObject({ status: 'error', problem: { id: 'process_died', title: 'the process ended in step 1' } });
    expect(grade.scenarios[0]!.problem!.message).toMatch(/^the learner's process was killed by SIGKILL in step 1/);
    expect(grade.scenarios[1]).toMatchObject({ status: 'fail', problem: { id: 'inv7_run_terminates' } });
  });

  it('an async step, written as the reference is, is graded like any other', async () => {
    const file = tmpFile('Async.mjs', 'export class LearnerRunner { async step(state) { return state; } }\n');
    const grade = await gradeSubmission(file, { scenarios: scenarios('read_only'), cwd: tmp, explore: false });
    expect(grade.scenarios[0]).toMatchObject({ status: 'fail', problem: { id: 'inv7_run_terminates' } });
  });
});

describe('a scenario the reference itself fails', () => {
  it('is reported as broken, not held against the learner', async () => {
    const wrong = tmpFile(
      'wrong_figures.yaml',
      (await import('node:fs')).readFileSync(join(ROOT, 'scenarios', 'happy_path.yaml'), 'utf8').replace('id: happy_path', 'id: wrong_figures').replace('calls: 4', 'calls: 5'),
    );
    const grade = await gradeSubmission(learner('Correct'), { scenarios: loadScenarios([wrong]), cwd: ROOT });
    expect(grade.scenarios[0]).toMatchObject({ status: 'error', problem: { id: 'reference_fails' } });
    expect(grade.explored[0]).toMatchObject({ part: 'explored', status: 'error', problem: { id: 'reference_fails' } });
    const message = grade.scenarios[0]!.problem!.message;
    expect(message).toMatch(/^this scenario is broken — the reference runner fails it too \(calls: expected 5, got 4\b.*\); no runner can pass it$/);
  });
});

describe('a submission graded alone, by two threads (each with its box, a core each)', () => {
  it('gets the very grade one thread gives it — a correct one and one with a mistake, scenario for scenario', async () => {
    const set = scenarios('happy_path', 'lost_reply', 'crash_after_commit', 'budget_exhausted', 'policy_gives_up');
    for (const file of [SOLUTION, learner('NewKeyPerAttempt')]) {
      const one = await gradeSubmission(file, { scenarios: set, replayDir: null, threads: 1 });
      const counted: number[] = [];
      const two = await gradeSubmission(file, { scenarios: set, replayDir: null, threads: 2, onCount: (count) => counted.push(count) });
      expect(counted).toEqual([5]);
      const same = (g: typeof one) => [...g.scenarios, ...g.explored].map((s) => ({ ...s, durationMs: 0 }));
      expect(same(two)).toEqual(same(one));
      expect([two.passed, two.total]).toEqual([one.passed, one.total]);
    }
  }, 240_000);

  it('shares the scenarios to explore by their schedules, the heaviest first, the first thread also running them as written', async () => {
    const { shareExploring } = await import('../../src/grade/gradeSubmission.js');
    // Costs 58, 50, 57, null (broken: not explored), 32; the first thread starts with 5 × 4 = 20 for the runs as written.
    expect(shareExploring([58, 50, 57, null, 32], 2)).toEqual([[2, 4], [0, 1]]);
    expect(shareExploring([58, 50], 1)).toEqual([[0, 1]]);
  });
});
