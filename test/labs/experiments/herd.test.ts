import { describe, expect, it } from 'vitest';
import { runLab } from '../../../src/labs/index.js';
import { loadLab, runWith } from '../helpers.js';

/**
 * The thundering herd: 100 clients fail at t = 0; the dependency then serves 10 requests per 100 ms
 * slot. Policy: 10 attempts, 500 ms doubling, capped at 10 s.
 *
 * The ranking, reasoned before it was simulated:
 * - none: every client waits exactly as long as every other, so the whole herd comes back in one slot
 *   each round; 10 get through, 90 are refused. Rounds at 0.5, 1.5, 3.5, 7.5, 15.5, 25.5, 35.5, 45.5
 *   and 55.5 s serve 90 clients; the last 10 give up after their 10th attempt. Attempts:
 *   100 + (100 + 90 + … + 20) = 640, done at 55.5 s — whatever the seed, since nothing is drawn.
 * - additive30: waits at least the full exponential figure, spread over only 30% of it, so rounds
 *   still clump: the most attempts of the jittered strategies, and a slow drain (slower than equal).
 * - equal: spread over half the figure, and earlier: fewer collisions and a quicker drain.
 * - full: spread over the whole figure, from 0: the quickest drain. Here (the first window of 500 ms
 *   holds 5 slots = 50 requests, half the herd) it also beats equal on attempts, as in the AWS study.
 * - decorrelated: never shorter than the initial delay, and its window triples rather than doubles, so
 *   the herd thins out fastest: the fewest attempts — but its longer waits drain later than full and equal.
 * The simulation agrees; these tests hold it to that, for several seeds. AWS's own simulation (clients
 * contending for one shared resource) put full jitter ahead of decorrelated on total work: the ranking
 * belongs to the model, and the last test shows this one's order dissolving when the base delay shrinks.
 */

const HERD = loadLab('thundering_herd');
type Row = { total_attempts: number; drain_ms: number; succeeded: number; gave_up: number; peak_per_slot: number };
type HerdFigures = { results: Record<string, Row>; ranking_by_attempts: string[]; ranking_by_drain_ms: string[]; histograms: Record<string, number[]> };
const figuresFor = (seed: number) => runLab(HERD, { seed }).figures as HerdFigures;

describe('no jitter: the herd retries in lockstep', () => {
  it('takes 640 attempts, serves 90, gives up on 10 and is done only at 55.5 s, for any seed', () => {
    for (const seed of [1, 42, 99]) {
      expect(figuresFor(seed).results.none).toMatchObject({ total_attempts: 640, drain_ms: 55_500, succeeded: 90, gave_up: 10, peak_per_slot: 100 });
    }
  });
});

describe('jitter: the ranking holds for every seed tried', () => {
  it.each([1, 2, 3, 42, 99, 2024])('seed %i: fewest attempts decorrelated < full < equal < additive30 < none', (seed) => {
    expect(figuresFor(seed).ranking_by_attempts).toEqual(['decorrelated', 'full', 'equal', 'additive30', 'none']);
  });

  it.each([1, 2, 3, 42, 99, 2024])('seed %i: full drains first, then equal; additive30 and decorrelated later; none last', (seed) => {
    const { ranking_by_drain_ms: order, results } = figuresFor(seed);
    expect(order.slice(0, 2)).toEqual(['full', 'equal']);
    expect(order.at(-1)).toBe('none');
    expect(results.additive30?.drain_ms).toBeGreaterThan(results.equal?.drain_ms ?? Infinity);
    expect(results.decorrelated?.drain_ms).toBeGreaterThan(results.full?.drain_ms ?? Infinity);
  });

  it('serves every client with every jittered strategy, at less than half the attempts of none', () => {
    const { results } = figuresFor(42);
    for (const s of ['additive30', 'full', 'equal', 'decorrelated']) {
      expect(results[s]).toMatchObject({ succeeded: 100, gave_up: 0 });
      expect(results[s]?.total_attempts).toBeLessThan(320 + 10);
    }
  });

  it('flattens the peak: no jittered strategy brings the whole herd back in one slot', () => {
    const { results } = figuresFor(42);
    for (const s of ['full', 'equal', 'decorrelated']) expect(results[s]?.peak_per_slot).toBeLessThan(50);
  });
});

describe('the histogram counts every retry once', () => {
  it('holds attempts − 100 first attempts per strategy', () => {
    const { results, histograms } = figuresFor(42);
    for (const [s, counts] of Object.entries(histograms)) {
      expect(counts.reduce((a, b) => a + b, 0)).toBe((results[s]?.total_attempts ?? 0) - 100);
    }
  });
});

describe('the ranking belongs to the model', () => {
  it('with a 10 ms base delay instead of 500 ms, the order of the jittered four changes from seed to seed; none stays last', () => {
    const shortBase = { retry_policy: { max_attempts: 10, initial_delay_ms: 10, max_delay_ms: 10_000, multiplier: 2 } };
    const rankings = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => (runWith('thundering_herd', { ...shortBase, expect: { capacity_per_second: 100 } }, seed).figures as HerdFigures).ranking_by_attempts);
    expect(new Set(rankings.map((r) => r.join(' < '))).size).toBeGreaterThan(1);
    for (const r of rankings) expect(r.at(-1)).toBe('none');
  });
});
