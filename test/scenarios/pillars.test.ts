/**
 * The durability pillars at the Runner's seams (issue 8): chapter-shaped scenarios with a `durability:` block,
 * run by the one simulator. The figures are written out here, not read from the YAML, so a drifting scenario
 * file cannot make its own test pass; each rule gets its own describe, with the figures that would move if
 * the rule broke.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { tempFolder } from '../tempFolder.js';
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import type { RunResult } from '../../src/check/RunResult.js';
import { durabilityFigures, totalCalls } from '../../src/check/durabilityFigures.js';
import { DeadLetterQueue } from '../../src/durability/dlq/DeadLetterQueue.js';
import { deadLetterHook, type DeadIntent } from '../../src/durability/seams/deadLetter.js';
import { VirtualClock } from '../../src/core/clock.js';
import { explore } from '../../src/explore/explore.js';
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { EVENT_SCHEMA, EventStore } from '../../src/runner/EventStore.js';
import { initialState } from '../../src/runner/state.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/ScenarioError.js';
import type { Scenario } from '../../src/scenario/types.js';
import { camera, events, judged, scenario } from '../support.js';
import { said } from '../../src/render/words/index.js';

const PILLARS_DIR = join(SCENARIOS_DIR, 'pillars');

const PILLAR_SCENARIOS = [
  // id, status, calls (all deliveries), ledger rows, camera available
  ['backoff_between_retries', 'succeeded', 6, 1, 2],
  ['breaker_opens_on_failing_reads', 'succeeded', 7, 1, 2],
  ['lost_reply_dead_letter_replay', 'succeeded', 5, 1, 2],
  ['crash_after_dead_letter', 'succeeded', 5, 1, 2],
  ['duplicate_intent_original_receipt', 'succeeded', 3, 1, 2],
  ['contract_error_no_dead_letter', 'tool_error', 4, 1, 2],
] as const;

const pillar = (id: string, options: Parameters<typeof judged>[1] = {}): Promise<RunResult> => judged(scenario(id), { storage: 'memory', ...options });
const backoffWaits = (run: RunResult) => events(run, 'pillar').flatMap((e) => (e.event.type === 'retry.backoff' ? [e.event] : []));

describe('the pillar scenarios (scenarios/pillars)', () => {
  it('are the six of the chapter-shaped pillar set, in their order', async () => {
    const ids = loadScenarios([PILLARS_DIR]).map((s) => s.id);
    expect(ids).toEqual(PILLAR_SCENARIOS.map(([id]) => id));
  });

  describe.each(PILLAR_SCENARIOS)('%s', (id, status, calls, ledger, stock) => {
    it(`ends ${status} after ${calls} calls with ${ledger} ledger row(s) and ${stock} camera(s) left, every check held`, async () => {
      for (const storage of ['memory', 'file'] as const) {
        const run = await pillar(id, { storage });
        expect([run.state?.status, totalCalls(run), run.db.ledger.length, camera(run)]).toEqual([status, calls, ledger, stock]);
        expect(run.checks.filter((c) => !c.passed)).toEqual([]);
      }
    });
  });
});

describe('no durability block: exactly the chapter’s Runner', () => {
  it('emits no pillar event and writes no dead letter in any of the 17', async () => {
    for (const s of loadScenarios()) {
      const run = await judged(s, { storage: 'memory' });
      expect(events(run, 'pillar'), s.id).toEqual([]);
      expect(run.dlq, s.id).toEqual([]);
      expect(run.replays, s.id).toEqual([]);
    }
  });
});

describe('retry with backoff and jitter: the runner waits before attempt n > 1', () => {
  it('waits twice in backoff_between_retries, within min(500 × 2^(n−1), 10 s) plus under 30% jitter', async () => {
    const waits = backoffWaits(await pillar('backoff_between_retries'));
    expect(waits.map((w) => [w.afterAttempt, w.cappedMs, w.strategy])).toEqual([
      [1, 500, 'additive30'],
      [2, 1000, 'additive30'],
    ]);
    for (const w of waits) {
      expect(w.delayMs).toBeGreaterThanOrEqual(w.cappedMs);
      expect(w.delayMs).toBeLessThan(w.cappedMs * 1.3);
    }
  });

  it('draws the same waits for the same seed, other waits for another seed, and no other figure moves', async () => {
    const delays = async (seed: number) => backoffWaits(await pillar('backoff_between_retries', { seed })).map((w) => w.delayMs);
    expect(await delays(42)).toEqual(await delays(42));
    const seeds = await Promise.all([1, 2, 3, 4, 5].map(delays));
    expect(new Set(seeds.map((d) => d.join(','))).size).toBeGreaterThan(1);
    for (const seed of [1, 2, 3]) expect((await pillar('backoff_between_retries', { seed })).passed).toBe(true);
  });

  it('moves the virtual clock by the wait, after attempt_started is saved and before the request leaves', async () => {
    const run = await pillar('backoff_between_retries');
    const i = run.trace.findIndex((e) => e.type === 'pillar' && e.event.type === 'retry.backoff');
    const wait = run.trace[i] as Extract<RunResult['trace'][number], { type: 'pillar' }>;
    const before = run.trace[i - 1]!;
    const request = run.trace.slice(i).find((e) => e.type === 'request')!;
    expect(before.type === 'saved' && before.label).toBe('attempt_started');
    expect(wait.event.type === 'retry.backoff' && request.t - wait.t).toBeGreaterThanOrEqual(wait.event.type === 'retry.backoff' ? wait.event.delayMs : Infinity);
  });

  it('keeps the attempts the step’s own: as many requests as without the pillar, the same calls', async () => {
    const without: Scenario = { ...scenario('backoff_between_retries') };
    delete without.durability;
    delete without.expect.durability;
    const plain = await judged(without, { storage: 'memory' });
    const pillared = await pillar('backoff_between_retries');
    expect([pillared.runnerRequests, pillared.state?.calls, pillared.log.map((e) => e.label)]).toEqual([plain.runnerRequests, plain.state?.calls, plain.log.map((e) => e.label)]);
  });
});

describe('the circuit breaker: asked before and told after every attempt', () => {
  let run: RunResult;
  beforeAll(async () => {
    run = await pillar('breaker_opens_on_failing_reads');
  });

  it('opens after 2 failures of 3 results (0.67 > 0.5), refuses one attempt, lets one probe through after 1 s, and closes', async () => {
    expect(durabilityFigures(run)).toMatchObject({ breaker: ['closed→open', 'open→half_open', 'half_open→closed'], refused_by_breaker: 1 });
    const opened = events(run, 'pillar').find((e) => e.event.type === 'breaker.transition' && e.event.to === 'open')!.event;
    expect(opened.type === 'breaker.transition' && [opened.requestCount, Math.round((opened.failureRate ?? 0) * 100)]).toEqual([3, 67]);
  });

  it('counts a refused attempt as one call and one attempt, and sends nothing on the wire for it', async () => {
    const refused = run.log.find((e) => e.label === 'transient:circuit_open')!;
    expect([refused.state.pending?.name, refused.state.attempts, refused.state.calls]).toEqual(['read_doc', 3, 4]);
    expect(run.state?.calls).toBe(7);
    expect(run.runnerRequests).toBe(6); // 7 calls, 1 of them refused before the wire
  });

  it('does not count a ContractError against the dependency: a wrong request is not a failing route', async () => {
    // contract_error_no_dead_letter's breaker opens at a failure rate above 0.2 after 1 result: had the
    // STALE_VERSION counted as a failure (1 of 4), it would have opened.
    const stale = await pillar('contract_error_no_dead_letter');
    expect(durabilityFigures(stale)).toMatchObject({ breaker: [], refused_by_breaker: 0 });
    const results = events(stale, 'pillar').flatMap((e) => (e.event.type === 'breaker.result' ? [e.event.success] : []));
    expect(results).toEqual([true, true, true, true]);
  });

  it('keeps its state across a crash: the row in the runner’s database is the breaker', async () => {
    const s = scenario('breaker_opens_on_failing_reads');
    // The process dies right after the refused attempt is saved: the new runner meets the breaker still open.
    s.faults.push({ kind: 'crash_after_event', at: { label: 'transient:circuit_open' } });
    delete s.expect.durability;
    const crashed = await judged(s, { storage: 'file' });
    expect(crashed.crashes).toBe(1);
    expect(durabilityFigures(crashed).breaker).toEqual(['closed→open', 'open→half_open', 'half_open→closed']);
    expect(crashed.checks.filter((c) => !c.passed)).toEqual([]);
  });
});

describe('the dead-letter queue: an exhausted intent is kept, in the same transaction as the final event', () => {
  it('keeps task, action, args and key of lost_reply_dead_letter_replay, and replays it into one ledger row and the original receipt', async () => {
    const run = await pillar('lost_reply_dead_letter_replay');
    const enqueued = events(run, 'pillar').find((e) => e.event.type === 'dlq.enqueued')!.event;
    const dead = (enqueued.type === 'dlq.enqueued' ? enqueued.record.originalOperation : null) as DeadIntent;
    expect(dead.scenario.id).toBe('lost_reply_dead_letter_replay');
    expect(dead.intent).toEqual({
      task: 'lost_reply_dead_letter_replay',
      action: 'reserve',
      args: { item: 'camera', qty: 1, expected_version: 0, key: run.db.ledger[0]!.key },
      key: run.db.ledger[0]!.key,
    });
    expect(run.db.ledger).toHaveLength(1);
    expect(run.state?.observations.reserve).toEqual(run.db.ledger[0]!.result);
    expect(run.dlq.map((r) => [r.status, r.action, r.lastError])).toEqual([['replayed', 'reserve', 'lost_reply']]);
    expect(run.replays).toEqual([{ dlqId: 'dlq-000001', callsBefore: 4 }]);
  });

  it('gives the replay a fresh call budget, and numbers its calls on the wire after the first delivery’s', async () => {
    const run = await pillar('lost_reply_dead_letter_replay');
    expect(run.log.find((e) => e.label.startsWith('replay:'))!.state).toMatchObject({ status: 'running', attempts: 0, calls: 0 });
    expect(events(run, 'request').filter((e) => e.by === 'runner').map((e) => e.call)).toEqual([1, 2, 3, 4, 5]);
  });

  it('finds the record and the final event together after a crash right after the write', async () => {
    const run = await pillar('crash_after_dead_letter');
    expect([run.crashes, run.dlq.map((r) => r.status), run.db.ledger.length]).toEqual([1, ['replayed'], 1]);
  });

  it('writes the record and the event in one transaction: if the record cannot be written, neither is', async () => {
    const db = new Database(':memory:');
    db.exec(EVENT_SCHEMA);
    const dlq = new DeadLetterQueue({ db, clock: new VirtualClock() });
    const hook = deadLetterHook(dlq, { ttlSeconds: 60, scenario: scenario('lost_reply_dead_letter_replay'), replaying: () => false });
    const store = new EventStore(db, undefined, (event) => {
      hook(event);
      throw new Error('the disk is full');
    });
    const state = { ...initialState(scenario('lost_reply_dead_letter_replay').task), status: 'retry_exhausted' as const, pending: { kind: 'tool' as const, name: 'reserve', args: { item: 'camera', qty: 1, expected_version: 0, key: 'k' } }, attempts: 1 };
    await expect(store.save(state, 'transient:lost_reply')).rejects.toThrow('the disk is full');
    expect([(await store.all()).length, dlq.list().length]).toEqual([0, 0]);
  });

  it('writes one record per intent, however many times the exhausted state is saved, and none without a pending action', async () => {
    const db = new Database(':memory:');
    db.exec(EVENT_SCHEMA);
    const dlq = new DeadLetterQueue({ db, clock: new VirtualClock() });
    const store = new EventStore(db, undefined, deadLetterHook(dlq, { ttlSeconds: 60, scenario: scenario('lost_reply_dead_letter_replay'), replaying: () => false }));
    const base = initialState(scenario('lost_reply_dead_letter_replay').task);
    const pending = { kind: 'tool' as const, name: 'reserve', args: { item: 'camera', qty: 1, expected_version: 0, key: 'k' } };
    store.save({ ...base, status: 'retry_exhausted', pending, attempts: 1 }, 'transient:lost_reply');
    store.save({ ...base, status: 'retry_exhausted', pending, attempts: 1 }, 'transient:lost_reply');
    store.save({ ...base, status: 'budget_exhausted', pending: null }, 'budget_exhausted');
    expect(dlq.list().map((r) => [r.operationType, r.lastError.code, r.lastError.definite])).toEqual([['reserve', 'lost_reply', false]]);
  });

  it('keeps a budget_exhausted run’s pending action too', async () => {
    const s = scenario('lost_reply_dead_letter_replay');
    s.task.max_calls = 4;
    s.task.max_retries = 3;
    s.durability = { dlq: {} };
    s.expect = {};
    const run = await judged(s, { storage: 'memory' });
    expect([run.state?.status, run.state?.pending?.name, run.dlq.map((r) => [r.status, r.lastError])]).toEqual(['budget_exhausted', 'reserve', [['pending', 'BUDGET_EXHAUSTED']]]);
    expect(run.passed).toBe(true);
  });

  it('writes no second record when a replay is exhausted again, and leaves the first one pending', async () => {
    const s = scenario('lost_reply_dead_letter_replay');
    s.faults.push({ kind: 'transient', at: { tool: 'reserve', call: 5 } }); // the replay's only attempt fails too
    s.expect = {};
    const run = await judged(s, { storage: 'memory' });
    expect([run.state?.status, run.dlq.map((r) => r.status), run.replays.length]).toEqual(['retry_exhausted', ['pending'], 1]);
    expect(run.checks.filter((c) => !c.passed)).toEqual([]);
  });

  it('catches a runner whose replay is a new intent: a new key breaks invariant 3 across the two deliveries', async () => {
    const mutant = MUTANTS.find((m) => m.name === 'new_key_per_attempt')!;
    const run = await pillar('lost_reply_dead_letter_replay', { runner: mutant.runner });
    expect(run.checks.find((c) => c.id === 'inv3_same_key_same_args')?.passed).toBe(false);
  });
});

describe('exploring the pillar scenarios', () => {
  it('finds no schedule that breaks an invariant with the reference runner (depth 1, every fault at every point)', async () => {
    const exploration = await explore(loadScenarios([PILLARS_DIR]), { depth: 1, seed: 42, storage: 'memory', workers: 1 });
    expect(exploration.total.total).toBeGreaterThan(300);
    expect([...exploration.total.violations.keys()]).toEqual([]);
  });
});

describe('a durability block that cannot work is bad input, at its line and column', () => {
  const dir = tempFolder('pillars');
  const source = readFileSync(join(PILLARS_DIR, 'backoff_between_retries.yaml'), 'utf8');
  const problems = (name: string, text: string): string[] => {
    writeFileSync(join(dir, name), text);
    try {
      loadScenarios([join(dir, name)]);
    } catch (error) {
      if (error instanceof ScenarioError) return error.problems.map((p) => `${p.line}:${p.col}: ${p.field}: ${said('en', p.message)}`);
      throw error;
    }
    return [];
  };

  it('names a cap without a first wait, and an unknown jitter', async () => {
    const text = source.replace('retry: { initial_delay_ms: 500, max_delay_ms: 10000, multiplier: 2, jitter: additive30 }', 'retry: { max_delay_ms: 100, jitter: sometimes }');
    expect(problems('cap.yaml', text)).toEqual([
      '29:12: durability.retry.max_delay_ms: comes with initial_delay_ms: give both or neither',
      '29:39: durability.retry.jitter: must be one of "none", "additive30", "full", "equal", "decorrelated" (got "sometimes")',
    ]);
  });

  it('refuses a breaker that could never open, and a cap below the first wait', async () => {
    const text = source.replace(
      'retry: { initial_delay_ms: 500, max_delay_ms: 10000, multiplier: 2, jitter: additive30 }',
      'retry: { initial_delay_ms: 500, max_delay_ms: 100 }\n  breaker: { min_request_count: 30, window_size: 10 }',
    );
    expect(problems('never.yaml', text)).toEqual([
      '29:49: durability.retry.max_delay_ms: must be >= initial_delay_ms (500): the cap cannot be below the first wait',
      '30:33: durability.breaker.min_request_count: must be <= window_size (10): a window of 10 results never reaches 30, so the breaker could never open',
    ]);
  });

  it('refuses pillar figures in expect when the scenario has no pillar', async () => {
    const text = source.replace(/\ndurability:\n.*\n/, '\n');
    expect(problems('figures.yaml', text)).toEqual(['38:3: expect.durability: the pillars have figures only with a durability block (durability: retry, breaker, dlq)']);
  });
});
