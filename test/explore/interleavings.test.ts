/**
 * Exploring the interleavings of many workers (docs/spec.md §11.1): within a bound on pre-emptions, with a
 * worker's lease expiring or the worker paused at every point of its loop, the explorer finds each of the
 * queue's six mutants and writes the smallest failing schedule as a file that `faultlab run` replays to the
 * same failure; the reference worker breaks nothing; the same input gives the same tallies.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical.js';
import { judge } from '../../src/check/verdict.js';
import { explore } from '../../src/explore/explore.js';
import { findings, type Finding } from '../../src/explore/findings.js';
import { exploreInterleavings, preemptionsOf, scheduleOf } from '../../src/explore/interleavings.js';
import { brokeOn, writeReplay } from '../../src/explore/replayFile.js';
import { runForVerdict } from '../../src/explore/runSchedule.js';
import { workerFaults } from '../../src/explore/enumerate.js';
import { Tally } from '../../src/explore/tally.js';
import type { Target } from '../../src/explore/target.js';
import { message } from '../../src/core/message.js';
import { describeFaults } from '../../src/faults/types.js';
import { word } from '../../src/render/words/index.js';
import { QUEUE_MUTANTS } from '../../src/mutants/catalogue.js';
import { loadScenarios } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/types.js';
import { simulate } from '../../src/sim/simulate.js';
import { cli } from '../support.js';
import { reference, tempDir } from './helpers.js';

const nine = loadScenarios(['scenarios/workers']);
const workersScenario = (id: string): Scenario => nine.find((s) => s.id === id)!;
/** The scenario with none of its own faults, or of its own schedule: what the explorer has to find by itself. */
const bare = (scenario: Scenario, keep: { faults?: boolean } = {}): Scenario => ({ ...scenario, faults: keep.faults ? scenario.faults : [], workers: { ...scenario.workers!, schedule: [] } });
const mutantTarget = (name: string): Target => {
  const mutant = QUEUE_MUTANTS.find((m) => m.name === name)!;
  return { runner: mutant.runner, tool: mutant.tool, ...(mutant.queue ? { queue: mutant.queue } : {}), ...(mutant.worker ? { worker: mutant.worker } : {}), seed: 42, storage: 'memory' };
};
const short = (invariant: string) => invariant.split('_')[0]!;

/** Explore one scenario under a mutant and shrink what broke. */
async function hunt(name: string, scenario: Scenario, preemptions: number): Promise<Finding[]> {
  return await findings(await explore([scenario], { preemptions, workers: 1, target: mutantTarget(name) }));
}

/** Write the finding's replay file, run it as `faultlab run` does, and say which rules it breaks. */
async function replay(name: string, finding: Finding): Promise<{ broken: string[]; sameRun: boolean }> {
  const file = writeReplay(
    'en',
    { scenario: finding.scenario, faults: finding.minimal, invariant: finding.invariant, broke: brokeOn(finding.run, finding.invariant, finding.message), who: message('cli.explore.whoMutant', { name }), schedule: finding.schedule },
    tempDir(),
  );
  const [scenario] = loadScenarios([file]);
  const { runner, tool, queue, worker } = mutantTarget(name);
  const run = judge(await simulate(scenario!, { runner, tool, ...(queue ? { queue } : {}), ...(worker ? { worker } : {}) }));
  return { broken: run.checks.filter((c) => !c.passed).map((c) => short(c.id)), sameRun: canonicalJson(run.trace) === canonicalJson(finding.run.trace) };
}

describe('a pre-emption, and the schedules it makes', () => {
  it('offers, at every choice after the last one changed, each ready actor that did not move there', async () => {
    const run = await runForVerdict(bare(workersScenario('rescuer_races_completion'), { faults: true }), [], reference);
    const choices = run.workers!.choices;
    expect(preemptionsOf(run, 0)).toHaveLength(choices.reduce((n, c) => n + c.ready.length - 1, 0));
    expect(preemptionsOf(run, 9).every((p) => p.choice > 9)).toBe(true);
    expect(preemptionsOf(run, 9)[0]).toEqual({ choice: 10, run: 'sweeper' });
  });

  it("keeps the scenario's own schedule before the first pre-emption, and drops it from there on", () => {
    const own = [{ choice: 12, run: 'sweeper' }];
    expect(scheduleOf(own, [{ choice: 14, run: 'w2' }])).toEqual([{ choice: 12, run: 'sweeper' }, { choice: 14, run: 'w2' }]);
    expect(scheduleOf(own, [{ choice: 10, run: 'w1' }])).toEqual([{ choice: 10, run: 'w1' }]);
  });

  it("adds, at every point of each worker's loop its run reached, its lease expiring and a pause of three leases", async () => {
    const run = await runForVerdict(workersScenario('deferred_upgrade_busy'), [], reference);
    const faults = workerFaults(run).map(([fault]) => fault!);
    // w1 claims, makes four requests and completes; w2 finds nothing: six points, two faults each.
    expect(faults).toHaveLength(12);
    expect(faults.slice(0, 2)).toEqual([
      { kind: 'lease_expires', at: { worker: 'w1', point: 'claimed', grant: 1 } },
      { kind: 'worker_pause', at: { worker: 'w1', point: 'claimed', grant: 1 }, ms: 1500 },
    ]);
    expect(faults.at(-1)).toEqual({ kind: 'worker_pause', at: { worker: 'w1', point: 'finish', grant: 1 }, ms: 1500 });
  });
});

describe('the reference worker under every interleaving within two pre-emptions', () => {
  for (const scenario of nine) {
    it(`breaks no rule on ${scenario.id}`, async () => {
      const root = await runForVerdict(scenario, [], reference);
      const tally = new Tally();
      await exploreInterleavings(scenario, [], root, 2, reference, tally);
      expect(tally.interleaved).toBeGreaterThan(0);
      expect(tally.interleavings.broke).toBe(0);
      expect([...tally.violations.keys()]).toEqual([]);
    }, 120_000);
  }
});

describe('the explorer finds each of the queue mutants', () => {
  it('rescue_overwrites_done: without the scenario’s schedule, one pre-emption finds the sweeper reading before w1 completes; the replay fails the same way', async () => {
    const found = await hunt('rescue_overwrites_done', bare(workersScenario('rescuer_races_completion'), { faults: true }), 1);
    expect(found.map((f) => short(f.invariant))).toEqual(['inv11']);
    const [finding] = found;
    expect(finding!.schedule).toEqual([{ choice: 10, run: 'sweeper' }]);
    expect(finding!.minimal).toEqual([{ kind: 'worker_pause', at: { worker: 'w1', point: 'finish' }, ms: 404 }]);
    expect(await replay('rescue_overwrites_done', finding!)).toEqual({ broken: ['inv11'], sameRun: true });
  }, 120_000);

  // mutant → the scenario it is hunted on (stripped of its own faults and schedule), the invariant, the smallest fault found
  const HUNTS: Array<[string, string, string, string]> = [
    ['no_fence_check', 'zombie_redoes_work', 'inv12', 'lease_expires at w1 right after its grant (grant 1)'],
    ['worker_checks_lease', 'lease_expires_before_reserve', 'inv10', 'lease_expires at w1 before reserve attempt 1 call 4'],
    ['completion_by_id_only', 'stale_completion_after_reclaim', 'inv11', 'worker_pause 1500 ms at w1 right after its grant (grant 1)'],
    ['deferred_upgrade', 'deferred_upgrade_busy', 'inv8', 'no fault'],
    ['token_compared_le', 'deferred_upgrade_busy', 'inv13', 'no fault'],
  ];
  for (const [name, id, invariant, minimal] of HUNTS) {
    it(`${name}: on ${id} with none of its own faults, ${minimal} breaks ${invariant}; the replay fails the same way`, async () => {
      const found = await hunt(name, bare(workersScenario(id)), 0);
      const finding = found.find((f) => short(f.invariant) === invariant);
      expect(finding, found.map((f) => f.invariant).join(', ')).toBeDefined();
      expect(word('en', describeFaults(finding!.minimal))).toBe(minimal);
      const replayed = await replay(name, finding!);
      expect(replayed.broken).toContain(invariant);
      expect(replayed.sameRun).toBe(true);
    }, 120_000);
  }
});

describe('what an exploration of interleavings covered, and that it is the same every time', () => {
  it('counts the interleavings by pre-emptions, those that repeated a run, and the pre-emptions pruned after them', async () => {
    const scenario = workersScenario('lost_claim_reply');
    const first = await explore([scenario], { preemptions: 2, workers: 1 });
    const { interleavings } = first.total;
    expect(first.preemptions).toBe(2);
    // As written, then 64 added faults (50 of the chapter's kinds, 14 of a worker's) on the default interleaving;
    // 327 interleavings: 305 with one pre-emption, 22 with two. 224 repeated a run already seen, so the 45
    // pre-emptions that would have extended them were not tried.
    expect(first.total.runs).toEqual([1, 64, 0]);
    expect([first.total.planned.lease_expires, first.total.planned.worker_pause]).toEqual([7, 7]);
    expect(interleavings).toEqual({ runs: [0, 305, 22], broke: 0, repeated: 224, pruned: 45 });
    expect(first.total.total).toBe(1 + 64 + 327);
    // Two threads instead of one: the same tallies, to the figure.
    const again = await explore([scenario], { preemptions: 2, workers: 2 });
    expect(canonicalJson(again.total.toData())).toBe(canonicalJson(first.total.toData()));
  }, 240_000);

  it('with --preemptions 0 explores no interleaving: the faults alone, as for one runner', async () => {
    const exploration = await explore([workersScenario('lost_claim_reply')], { preemptions: 0, workers: 1 });
    expect(exploration.total.interleaved).toBe(0);
    expect(exploration.total.total).toBe(exploration.total.runs.reduce((a, b) => a + b, 0));
  }, 120_000);
});

describe('faultlab explore on a many-worker scenario', () => {
  it('says the bound, what the interleavings covered and what was pruned, and the 13 invariants it checked', async () => {
    const out = await cli(['explore', 'scenarios/workers/lost_claim_reply.yaml', '--preemptions', '1', '--workers', '1', '--out', tempDir()]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('schedules (1 scenario as written, 64 with one added fault, ');
    expect(out.stdout).toContain('  Interleavings of many workers\n    Up to 1 pre-emption(s) per run.');
    expect(out.stdout).toMatch(/\n {4}\d+ run \(\d+ with 1\), 0 of them broke a rule\n/);
    // w1's first grant is never 'claimed': its reply is lost (the scenario's own fault), so a fault there does not fire.
    expect(out.stdout).toMatch(/\n {4}lease_expires +6 \/ 7 +never fired: 1 pre-empted by another fault at that attempt\n {4}worker_pause +6 \/ 7 /);
    expect(out.stdout).toContain('(13 invariants of docs/spec.md §7 and §12 checked after each run)');
  }, 120_000);

  it('gives the same in JSON: the bound, the interleavings, and each violation with the choices of its schedule', async () => {
    const out = await cli(['explore', 'scenarios/workers/rescuer_races_completion.yaml', '--runner', 'mutant:rescue_overwrites_done', '--preemptions', '1', '--json', '--workers', '1', '--out', tempDir()]);
    expect(out.code).toBe(1);
    const doc = JSON.parse(out.stdout);
    expect(doc.preemptions).toBe(1);
    expect(doc.interleavings).toEqual({ runs: 34, byPreemptions: { '1': 34 }, broke: 16, repeated: 19, pruned: 0 });
    expect(doc.scenarios[0].interleavings).toEqual(doc.interleavings);
    const [violation] = doc.violations;
    expect(violation).toMatchObject({
      scenario: 'rescuer_races_completion',
      invariant: 'inv11_finished_stays_finished',
      schedule: [{ kind: 'worker_pause', at: { worker: 'w1', point: 'finish' }, ms: 404 }],
      choices: [{ choice: 12, run: 'sweeper' }],
    });
  }, 120_000);

  it('refuses a bound that is not a whole number up to 4, exit 2', async () => {
    for (const given of ['two', '5', '1.5']) {
      const out = await cli(['explore', 'scenarios/workers/lost_claim_reply.yaml', '--preemptions', given]);
      expect(out.code, given).toBe(2);
      expect(out.stderr).toContain(`--preemptions must be an integer from 0 to 4, got "${given}"`);
    }
  });

  it('names the bound in its help, in both languages', async () => {
    expect((await cli(['explore', '--help'])).stdout).toContain('--preemptions N   many workers: pre-emptions per run, at most (default 2)');
    expect((await cli(['explore', '--help', '--lang', 'zh'])).stdout).toContain('--preemptions N   多个工作进程：每次运行最多几次抢占（默认 2）');
  });
});
