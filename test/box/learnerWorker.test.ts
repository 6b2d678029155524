/**
 * The second exercise: a learner's worker (src/runner/LearnerWorker.ts) — claim, finish, sweep and the fence —
 * runs in a box per actor, its every statement carried out by the harness at the reference queue's turn points.
 * A correct one gives the reference's trace line for line; each classic mistake is caught by the invariant that
 * names it; what a worker may not do (write another table, leave a transaction open, claim what it did not grant)
 * is that run's failure, said in a sentence.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support.js';
import { tempFolder } from '../tempFolder.js';

const ROOT = join(import.meta.dirname, '..', '..');
const WORKERS = join(ROOT, 'test', 'fixtures', 'workers');
const SCENARIOS = join(ROOT, 'scenarios', 'workers');
const out = tempFolder('learner-worker');

interface Judged {
  id: string;
  passed: boolean;
  violations: Array<{ check: string; message: string }>;
}

/** `faultlab run --json` of a worker file on the many-worker scenarios (or those named). */
async function run(file: string, ids: string[] = []): Promise<{ code: number; stderr: string; scenarios: Judged[] }> {
  const targets = ids.length === 0 ? [SCENARIOS] : ids.map((id) => join(SCENARIOS, `${id}.yaml`));
  const ran = await cli(['run', ...targets, '--runner', file, '--json']);
  const doc = JSON.parse(ran.stdout) as { scenarios: Judged[] };
  return { code: ran.code, stderr: ran.stderr, scenarios: doc.scenarios };
}

const fixture = (...path: string[]) => join(WORKERS, ...path, 'LearnerWorker.ts');

describe('a correct worker', () => {
  it('the pinned solution gives the reference queue\'s trace, line for line, on the nine scenarios', async () => {
    const reference = await cli(['run', SCENARIOS, '--no-color']);
    const learner = await cli(['run', SCENARIOS, '--runner', fixture('solution'), '--no-color']);
    expect([reference.code, learner.code], `${learner.stdout.slice(-3000)}\n${learner.stderr.slice(-2000)}`).toEqual([0, 0]);
    const body = (text: string) => text.slice(0, text.lastIndexOf('passed, 0 failed'));
    expect(body(learner.stdout)).toBe(body(reference.stdout));
    expect(learner.stdout).toContain('9 passed, 0 failed');
  }, 120_000);

  it('one written differently (a sweep with no transaction, each return one conditional UPDATE) breaks no rule', async () => {
    const { scenarios } = await run(fixture('different'));
    expect(scenarios).toHaveLength(9);
    // Its interleavings are its own (how many grants a race takes), its rules the same: no invariant breaks.
    expect(scenarios.flatMap((s) => s.violations.filter((v) => v.check.startsWith('inv')).map((v) => `${s.id}: ${v.check}`))).toEqual([]);
  }, 120_000);
});

/** Each classic mistake, the scenario as written that shows it, and the rules it breaks there. */
const MISTAKES: Array<[string, string, string[]]> = [
  ['no-fence-check', 'lease_expires_before_reserve', ['inv4_log_rebuilds_state', 'inv10_no_stale_token']],
  ['token-compared-le', 'zombie_after_pause', ['inv4_log_rebuilds_state', 'inv7_run_terminates', 'inv13_no_stranded_task']],
  ['completion-by-id', 'stale_completion_after_reclaim', ['inv11_finished_stays_finished']],
  ['rescue-overwrites-done', 'rescuer_races_completion', ['inv11_finished_stays_finished']],
  ['deferred-upgrade', 'double_claim_race', ['inv8_one_live_holder', 'inv9_token_plus_one']],
  ['reclaim-keeps-token', 'lost_claim_reply', ['inv9_token_plus_one']],
  ['claim-without-transaction', 'double_claim_race', ['inv8_one_live_holder']],
];

describe('each classic mistake, as written', () => {
  for (const [mistake, scenario, broken] of MISTAKES) {
    it(`${mistake}: ${scenario} breaks ${broken.join(', ')}`, async () => {
      const { code, scenarios } = await run(fixture('mistakes', mistake), [scenario]);
      expect(code).toBe(1);
      expect(scenarios[0]!.violations.map((v) => v.check).filter((c) => c.startsWith('inv'))).toEqual(broken);
    }, 60_000);
  }
});

describe('what a worker may not do', () => {
  /** A worker file in the temporary folder: the solution with one method's body replaced. */
  function worker(name: string, claimBody: string, fence = "task_id = @task AND owner = @owner AND token = @token AND state = 'running'"): string {
    const file = join(out, `${name}.ts`);
    writeFileSync(
      file,
      `import { BaseWorker, type Claimed, type Fence, type Returned } from './BaseWorker.js';
export class LearnerWorker extends BaseWorker {
  static readonly fence = ${JSON.stringify(fence)};
  claim(owner: string): Claimed | null { ${claimBody} }
  finish(_fence: Fence, _state: 'done' | 'failed', _result: string): boolean { return false; }
  sweep(): Returned[] { return []; }
}
`,
    );
    return file;
  }

  /** What the run says the worker did wrong (its summary line: "the runner threw …"), on one scenario. */
  const first = async (file: string) => {
    const ran = await cli(['run', join(SCENARIOS, 'zombie_after_pause.yaml'), '--runner', file, '--no-color', '--width', '400']);
    expect(ran.code).toBe(1);
    return ran.stdout.split('\n').find((line) => line.includes('the runner threw')) ?? ran.stdout;
  };

  it('writes nothing but tasks: a statement that would touch the ledger is refused from its own plan, before it runs', async () => {
    const message = await first(worker('writes-ledger', "this.db.run('DELETE FROM ledger'); return null;"));
    expect(message).toContain('a worker writes the table tasks and nothing else; this statement would write ledger: DELETE FROM ledger');
    const schema = await first(worker('drops-table', "this.db.run('DROP TABLE items'); return null;"));
    expect(schema).toContain('this statement would write the schema');
    const pragma = await first(worker('pragma', "this.db.run('PRAGMA journal_mode = DELETE'); return null;"));
    expect(pragma).toContain('would write PRAGMA');
  }, 60_000);

  it('exec takes transaction control only', async () => {
    expect(await first(worker('exec-select', "this.db.exec('SELECT 1'); return null;"))).toContain('exec takes transaction control only');
  }, 60_000);

  it('a claim commits its grant before it returns, and returns no task it did not grant', async () => {
    expect(await first(worker('claims-nothing', "return { task: 'zombie_after_pause' };"))).toContain('claim returned task zombie_after_pause, but the table does not show it granted to w1');
    expect(await first(worker('leaves-open', "this.db.exec('BEGIN IMMEDIATE'); return null;"))).toContain('claim returned with its transaction still open');
    expect(await first(worker('returns-junk', 'return 42 as never;'))).toContain('claim returned 42');
  }, 60_000);

  it('the stub, unwritten, is refused at load with what is missing', async () => {
    const ran = await cli(['run', join(SCENARIOS, 'zombie_after_pause.yaml'), '--runner', join(ROOT, 'src', 'runner', 'LearnerWorker.ts')]);
    expect(ran.code).not.toBe(0);
    expect(ran.stdout + ran.stderr).toContain("LearnerWorker.fence is not written: a SQL condition on tasks with @task, @owner and @token");
  }, 60_000);

  it('a worker has no queue to run on in a scenario of one runner: said, not run with the reference', async () => {
    const ran = await cli(['run', join(ROOT, 'scenarios', 'happy_path.yaml'), '--runner', fixture('solution'), '--no-color']);
    expect(ran.code).toBe(2);
    expect(ran.stdout + ran.stderr).toContain('LearnerWorker is a worker (the second exercise): it runs on the many-worker scenarios (scenarios/workers/), not on happy_path');
  }, 60_000);
});

describe('graded like the first exercise', () => {
  it('as written: the solution 9/9, a mistake fails the scenario that shows it', async () => {
    const good = await cli(['grade', fixture('solution'), '--no-explore', '--no-color']);
    expect(good.stdout).toContain('· 9 scenarios ·');
    expect(good.stdout).toContain('score 9/9');
    const bad = await cli(['grade', fixture('mistakes', 'completion-by-id'), '--no-explore', '--no-color']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/✘ 44 stale_completion_after_reclaim/);
  }, 180_000);

  it('explored: a mistake the scenarios as written miss is found among the interleavings', async () => {
    // The deferred upgrade's double grant needs two claimants to meet: the scenario's own schedule shows it, and
    // so does exploring the zombie scenario, where nothing as written makes two workers claim at once.
    const graded = await cli(['grade', fixture('mistakes', 'deferred-upgrade'), '--scenarios', 'crash_after_commit_other_worker', '--no-color', '--replays', join(out, 'replays')]);
    expect(graded.code).toBe(1);
    expect(graded.stdout).toMatch(/inv8|at most one live holder/);
    expect(graded.stdout).toContain('over their interleavings (up to 2 pre-emptions) and with one added fault at every point');
    expect(graded.stdout).toMatch(/explored: \d+ schedules \(interleavings, and one added fault at every point\), \d+ broke a rule/);
  }, 300_000);
});
