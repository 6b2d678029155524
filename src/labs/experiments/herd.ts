import type { JitterStrategy, RetryPolicy } from '../../durability/config/types.js';
import { backoffDelay } from '../../durability/retry/backoff.js';
import { validatePolicy } from '../../durability/retry/RetryPolicy.js';
import { ConfigError } from '../../durability/errors.js';
import type { LabContext } from '../LabContext.js';
import { fromConfigError, ScenarioInputError } from '../ScenarioInputError.js';
import type { Experiment } from './types.js';
import { msg } from '../../render/words/index.js';

/**
 * The thundering herd. At t = 0 every client's request fails at once (the dependency blipped). From then
 * on the dependency serves at most `requests_per_slot` requests in each `slot_ms` slot and refuses the
 * rest with RATE_LIMITED. Every client retries with the same policy and one jitter strategy; the
 * experiment repeats the whole story once per strategy and compares total attempts and time to drain.
 * Delays come from retry/backoff.ts, the same function RetryEngine uses.
 */

interface Setup {
  clients: number;
  capacity: { requests_per_slot: number; slot_ms: number };
  retry_policy: { max_attempts: number; initial_delay_ms: number; max_delay_ms: number; multiplier: number };
  strategies: JitterStrategy[];
  histogram: { bin_ms: number; bins: number };
}

export interface HerdResult {
  total_attempts: number;
  drain_ms: number;
  succeeded: number;
  gave_up: number;
  peak_per_slot: number;
  /** The client that was done last, and every wait it made. */
  slowest_client: number;
  slowest_client_waits_ms: number[];
  retry_times_ms: number[];
}

export const herdExperiment: Experiment = {
  meanings: () => ({
    results: msg('lab.herd.meaning.results'),
    ranking_by_attempts: msg('lab.herd.meaning.ranking_by_attempts'),
    ranking_by_drain_ms: msg('lab.herd.meaning.ranking_by_drain_ms'),
    histograms: msg('lab.herd.meaning.histograms'),
    histogram_bin_ms: msg('lab.herd.meaning.histogram_bin_ms'),
    capacity_per_second: msg('lab.herd.meaning.capacity_per_second'),
  }),

  run(ctx: LabContext): Record<string, unknown> {
    const setup = ctx.scenario as unknown as Setup;
    const results: Record<string, Omit<HerdResult, 'retry_times_ms'>> = {};
    const histograms: Record<string, number[]> = {};
    for (const strategy of setup.strategies) {
      const r = simulateHerd(ctx, setup, strategy);
      const { retry_times_ms: times, ...summary } = r;
      results[strategy] = summary;
      histograms[strategy] = histogram(times, setup.histogram.bin_ms, setup.histogram.bins);
      ctx.events.push({
        type: 'herd.summary',
        atMs: r.drain_ms,
        strategy,
        totalAttempts: r.total_attempts,
        drainMs: r.drain_ms,
        gaveUp: r.gave_up,
        slowestClient: r.slowest_client,
        slowestClientDelaysMs: r.slowest_client_waits_ms,
      });
    }
    const order = setup.strategies;
    const rank = (by: (s: JitterStrategy) => number): string[] => [...order].sort((a, b) => by(a) - by(b) || order.indexOf(a) - order.indexOf(b));
    return {
      capacity_per_second: (setup.capacity.requests_per_slot * 1000) / setup.capacity.slot_ms,
      histogram_bin_ms: setup.histogram.bin_ms,
      results,
      ranking_by_attempts: rank((s) => results[s]?.total_attempts ?? 0),
      ranking_by_drain_ms: rank((s) => results[s]?.drain_ms ?? 0),
      histograms,
    };
  },
};

interface Pending {
  atMs: number;
  seq: number;
  client: number;
  attempt: number;
  previousDelayMs?: number;
}

/** One strategy, one herd: a discrete-event simulation in (time, arrival order). Its clock is its own. */
export function simulateHerd(ctx: LabContext, setup: Setup, strategy: JitterStrategy): HerdResult {
  const policy = herdPolicy(setup, strategy);
  const rng = ctx.rng.fork(`herd/${strategy}`);
  const queue: Pending[] = Array.from({ length: setup.clients }, (_, i) => ({ atMs: 0, seq: i, client: i + 1, attempt: 1 }));
  let seq = queue.length;
  const servedIn = new Map<number, number>();
  const arrivalsIn = new Map<number, number>();
  const result: HerdResult = { total_attempts: 0, drain_ms: 0, succeeded: 0, gave_up: 0, peak_per_slot: 0, slowest_client: 0, slowest_client_waits_ms: [], retry_times_ms: [] };
  const waits = new Map<number, number[]>();
  const done = (p: Pending): void => {
    if (p.atMs >= result.drain_ms) {
      result.drain_ms = p.atMs;
      result.slowest_client = p.client;
      result.slowest_client_waits_ms = waits.get(p.client) ?? [];
    }
  };

  while (queue.length > 0) {
    let next = 0;
    for (let i = 1; i < queue.length; i += 1) {
      const a = queue[i] as Pending;
      const b = queue[next] as Pending;
      if (a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq)) next = i;
    }
    const p = queue.splice(next, 1)[0] as Pending;
    result.total_attempts += 1;
    const slot = Math.floor(p.atMs / setup.capacity.slot_ms);
    let served = false;
    if (p.attempt > 1) {
      result.retry_times_ms.push(p.atMs);
      arrivalsIn.set(slot, (arrivalsIn.get(slot) ?? 0) + 1);
      result.peak_per_slot = Math.max(result.peak_per_slot, arrivalsIn.get(slot) ?? 0);
      served = (servedIn.get(slot) ?? 0) < setup.capacity.requests_per_slot;
      if (served) servedIn.set(slot, (servedIn.get(slot) ?? 0) + 1);
    }
    ctx.events.push({ type: 'herd.attempt', atMs: p.atMs, strategy, client: p.client, attempt: p.attempt, served });
    if (served) {
      result.succeeded += 1;
      done(p);
      continue;
    }
    if (p.attempt >= policy.maxAttempts) {
      result.gave_up += 1;
      done(p);
      continue;
    }
    const { delayMs } = backoffDelay(
      { strategy, initialDelayMs: policy.initialDelayMs, maxDelayMs: policy.maxDelayMs, multiplier: policy.multiplier, failedAttemptIndex: p.attempt - 1, ...(p.previousDelayMs === undefined ? {} : { previousDelayMs: p.previousDelayMs }) },
      rng,
    );
    ctx.events.push({ type: 'herd.backoff', atMs: p.atMs, strategy, client: p.client, afterAttempt: p.attempt, delayMs });
    waits.set(p.client, [...(waits.get(p.client) ?? []), delayMs]);
    queue.push({ atMs: p.atMs + delayMs, seq: seq++, client: p.client, attempt: p.attempt + 1, previousDelayMs: delayMs });
  }
  return result;
}

/** Counts per bin [k × bin, (k+1) × bin); the last bin also holds everything later. */
export function histogram(timesMs: number[], binMs: number, bins: number): number[] {
  const counts = Array.from({ length: bins }, () => 0);
  for (const t of timesMs) {
    const k = Math.min(bins - 1, Math.floor(t / binMs));
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}

/** Every client's policy: the lab's retry_policy with one jitter strategy. */
function herdPolicy(setup: Setup, strategy: JitterStrategy): RetryPolicy {
  try {
    return validatePolicy(
      {
        operationType: 'herd',
        maxAttempts: setup.retry_policy.max_attempts,
        initialDelayMs: setup.retry_policy.initial_delay_ms,
        maxDelayMs: setup.retry_policy.max_delay_ms,
        multiplier: setup.retry_policy.multiplier,
        jitter: strategy,
        retryableErrors: ['RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
        nonRetryableErrors: [],
      },
      'retry_policy',
    );
  } catch (error) {
    if (error instanceof ConfigError) throw fromConfigError(error);
    throw error;
  }
}
