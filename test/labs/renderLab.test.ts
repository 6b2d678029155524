import { describe, expect, it } from 'vitest';
import { renderLabRun, runLab } from '../../src/labs/index.js';
import { colorStyle, PLAIN } from '../../src/render/style.js';
import { loadLab, plain } from './helpers.js';

/** A lab printed in the look of a runner's run: title rule, time column, checks and verdict alike. */

const run = (id: string, seed = 42) => runLab(loadLab(id), { seed });

describe('a lab looks like a run', () => {
  const text = plain(run('breaker_exact_threshold'));
  const lines = text.split('\n');

  it('opens with the same title rule, then the explanation and what ran it', () => {
    expect(lines[0]).toMatch(/^━━ breaker_exact_threshold ━ Circuit breaker: a failure rate exactly at the threshold stays closed ━{3,}$/);
    expect(text).toContain('  seed 42 · lab breaker · no runner: the lab drives the pillars directly');
  });

  it('prints every event with its virtual time in the runner trace’s column (ms, right-aligned to 8)', () => {
    const trace = lines.slice(lines.indexOf('       t  event') + 1, lines.indexOf('  figures') - 1);
    expect(trace.length).toBeGreaterThan(20);
    for (const line of trace) expect(line).toMatch(/^ *\d+ms {2}/);
    expect(trace).toContain('  1000ms  breaker memory_service: closed → open (failure rate 0.55 over 11 results; refuses calls for 30 s)');
  });

  it('prints its checks as every run does (✔ title, expected · actual) and ends with the verdict', () => {
    expect(text).toContain('  ✔ snapshots.after_ten.state expected closed · actual closed');
    expect(text).toMatch(/ {2}✔ transitions {12}expected \["closed→open"\] · actual \["closed→open"\]/);
    expect(lines.at(-2)).toBe('  PASS breaker_exact_threshold: all 8 checks held');
  });

  it('takes its colour only from the Style it is given', async () => {
    const r = run('breaker_exact_threshold');
    expect(renderLabRun(r, PLAIN, { lang: 'en' })).not.toMatch(/\u001b\[/);
    expect(renderLabRun(r, await colorStyle(1), { lang: 'en' })).toMatch(/\u001b\[/);
  });
});

describe('the trace shows every transition, every backoff delay, every DLQ record', () => {
  it('prints one line per breaker transition, in order', () => {
    const lines = plain(run('breaker_trips_and_recovers')).split('\n');
    expect(lines.filter((l) => /memory_service: (closed|open|half_open) → /.test(l)).map((l) => l.replace(/^.*memory_service: /, '').split(' (')[0])).toEqual([
      'closed → open',
      'open → half_open',
      'half_open → closed',
    ]);
    expect(lines).toContain('   900ms  breaker memory_service: closed → open (failure rate 0.60 over 10 results; refuses calls for 30 s)');
  });

  it('prints every backoff delay with its time', () => {
    const r = run('backoff_schedule');
    const backoffs = r.events.filter((e) => e.type === 'retry.backoff');
    const lines = plain(r).split('\n').filter((l) => l.includes('backoff: wait'));
    expect(lines).toHaveLength(backoffs.length);
    expect(lines[0]).toBe('     0ms  backoff: wait 500 ms before attempt 2 (capped 500 ms, jitter none)');
  });

});

