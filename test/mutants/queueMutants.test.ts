/**
 * The queue's mutants (src/mutants/queueStores.ts): each breaks exactly the invariants it should on its own
 * scenario, every invariant of the queue is killed by at least one, and the whole table — every mutant on every
 * many-worker scenario — is written out here as figures: which scenarios catch which mistake.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/check/RunResult.js';
import { QUEUE_INVARIANTS } from '../../src/check/queueInvariants.js';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import { mutantNamed, QUEUE_MUTANTS, type Mutant } from '../../src/mutants/catalogue.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { cli, judged, scenario } from '../support.js';
import { tempFolder } from '../tempFolder.js';

const WORKER_SCENARIOS = loadScenarios([join(SCENARIOS_DIR, 'workers')]);

async function underMutant(mutant: Mutant, id: string): Promise<RunResult> {
  return judged(scenario(id), { runner: mutant.runner, tool: mutant.tool, ...(mutant.queue ? { queue: mutant.queue } : {}), ...(mutant.worker ? { worker: mutant.worker } : {}) });
}

const broken = (run: RunResult) => run.checks.filter((c) => !c.passed && c.kind === 'invariant').map((c) => c.id.split('_')[0]!);

/** mutant → its scenario, the queue invariants it breaks there, and the chapter's it breaks too. */
const DESIGNATED: Record<string, [string, string[], string[]]> = {
  no_fence_check: ['zombie_redoes_work', ['inv12'], ['inv4']],
  token_compared_le: ['double_claim_race', ['inv13'], ['inv4', 'inv7']],
  worker_checks_lease: ['lease_expires_before_reserve', ['inv10'], []],
  completion_by_id_only: ['stale_completion_after_reclaim', ['inv11'], []],
  rescue_overwrites_done: ['rescuer_races_completion', ['inv11'], []],
  deferred_upgrade: ['deferred_upgrade_busy', ['inv8', 'inv9'], []],
};

const QUEUE = new Set(QUEUE_INVARIANTS.map((inv) => inv.id.split('_')[0]!));

describe('the queue’s mutants', () => {
  it('are the six of issue 22, each named as `faultlab run --runner mutant:NAME` names it', () => {
    expect(QUEUE_MUTANTS.map((m) => m.name)).toEqual(Object.keys(DESIGNATED));
    for (const m of QUEUE_MUTANTS) expect(mutantNamed(m.name)).toBe(m);
  });

  for (const [name, [id, queue, chapter]] of Object.entries(DESIGNATED)) {
    it(`${name} breaks exactly ${queue.join(' and ')} of the queue’s invariants on ${id}${chapter.length ? ` (and ${chapter.join(', ')} of the chapter’s)` : ''}`, async () => {
      const mutant = mutantNamed(name)!;
      const run = await underMutant(mutant, id);
      expect(broken(run).filter((inv) => QUEUE.has(inv))).toEqual(queue);
      expect(broken(run).filter((inv) => !QUEUE.has(inv))).toEqual(chapter);
      expect(mutant.caughtBy).toEqual({ invariant: QUEUE_INVARIANTS.find((inv) => inv.id.startsWith(`${queue[0]}_`))!.id, scenario: id });
    });
  }

  it('kill every invariant of the queue, each at least once', () => {
    const killed = new Set(Object.values(DESIGNATED).flatMap(([, queue]) => queue));
    expect([...QUEUE].filter((inv) => !killed.has(inv))).toEqual([]);
  });

  it('are caught, each by every scenario this table says, and by no other', async () => {
    // mutant → the scenarios of scenarios/workers that catch it (in their order), with what they break
    const TABLE: Record<string, string[]> = {
      no_fence_check: ['lease_expires_before_reserve inv4 inv10', 'zombie_redoes_work inv4 inv12'],
      token_compared_le: WORKER_SCENARIOS.map((s) => `${s.id} inv4 inv7 inv13`),
      worker_checks_lease: ['lease_expires_before_reserve inv10'],
      completion_by_id_only: ['stale_completion_after_reclaim inv11', 'rescuer_races_completion inv11'],
      rescue_overwrites_done: ['rescuer_races_completion inv11'],
      deferred_upgrade: WORKER_SCENARIOS.map((s) => `${s.id} inv8 inv9`),
    };
    for (const mutant of QUEUE_MUTANTS) {
      const caught: string[] = [];
      for (const s of WORKER_SCENARIOS) {
        const invariants = broken(await underMutant(mutant, s.id));
        if (invariants.length > 0) caught.push([s.id, ...invariants].join(' '));
      }
      expect(caught, mutant.name).toEqual(TABLE[mutant.name]);
    }
  }, 60_000);

  it('are reported by `faultlab explore --mutants` with every scenario that catches each, and every invariant of the queue caught', async () => {
    const out = await cli(['explore', '--mutants', 'scenarios/workers', '--json', '--out', tempFolder('queue-mutants')]); // its replay files, never in the checkout
    expect(out.code, out.stderr).toBe(0);
    const doc = JSON.parse(out.stdout) as { mutants: unknown[]; queueMutants: Array<{ name: string; catches: Array<{ scenario: string; queue: string[] }> }> };
    expect(doc.mutants).toEqual([]); // the chapter's mutants need scenarios of one runner
    const rescue = doc.queueMutants.find((m) => m.name === 'rescue_overwrites_done')!;
    // The message in words, and as data: the task was done under token 1, and at 500 ms back in the queue.
    expect(rescue.catches).toEqual([
      {
        scenario: 'rescuer_races_completion',
        queue: ['inv11_finished_stays_finished'],
        chapter: [],
        message: expect.stringContaining('was done (token 1), and at 500 ms became queued (token 1)'),
        code: 'check.inv11.changed',
        params: {
          task: 'rescuer_races_completion',
          was: { code: 'check.inv11.state', params: { state: 'done', token: 1 } },
          now: { code: 'check.inv11.state', params: { state: 'queued', token: 1 } },
          at: 500,
        },
      },
    ]);
    const killed = new Set(doc.queueMutants.flatMap((m) => m.catches.flatMap((c) => c.queue)));
    expect(killed.size).toBe(QUEUE_INVARIANTS.length);
  }, 60_000);

  it('fail `faultlab run --runner mutant:NAME` on their scenario, naming the invariant; the reference passes it', async () => {
    const out = await cli(['run', 'rescuer_races_completion', '--runner', 'mutant:rescue_overwrites_done', '--json']);
    expect(out.code, out.stderr).toBe(1);
    const doc = JSON.parse(out.stdout) as { scenarios: Array<{ violations: Array<{ check: string }> }> };
    expect(doc.scenarios[0]!.violations.map((v) => v.check)).toContain('inv11_finished_stays_finished');
    expect((await cli(['run', 'rescuer_races_completion', '--json'])).code).toBe(0);
  });
});
