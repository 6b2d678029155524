/**
 * The pillars as a user's code meets them: imported from 'faultlab/durability' — the package's own name,
 * resolved through its "exports" to dist/ (so `npm run build` first), never from src/. The README's example
 * ("Using the pillars from your own code") is this file's first test, line for line: the test checks that the
 * README block is the code below between the two markers, runs that block as a user's ES module in a child
 * `node`, and holds what it prints to what the README says it prints.
 */
import { DurabilityLayer, SeededRng, VirtualClock, fail, openDatabase, succeed } from 'faultlab/durability';
import { BreakerRegistry, CircuitOpenError, idempotencyKey, type StateTransition } from 'faultlab/durability';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const HEADING = '### Using the pillars from your own code';

/** The README's example (its first ts block under the heading) and the line it says the example prints. */
function readmeExample(): { code: string; prints: string } {
  const start = README.indexOf(`\n${HEADING}\n`);
  expect(start, `README.md has no "${HEADING}"`).toBeGreaterThan(-1);
  const section = README.slice(start, README.indexOf('\n## ', start + 1));
  const code = /^```ts\n([\s\S]*?)^```/m.exec(section)?.[1];
  const prints = /^It prints `([^`]+)`/m.exec(section)?.[1];
  expect(code, 'a ts block').toBeDefined();
  expect(prints, '"It prints `…`"').toBeDefined();
  return { code: code!, prints: prints! };
}

/** This file's first import line and the lines between the markers, unindented: what the README must show. */
function thisFilesExample(): string {
  const source = readFileSync(import.meta.filename, 'utf8').split('\n');
  const from = source.findIndex((line) => line.trim().startsWith('// ── the README example, as written there'));
  const to = source.findIndex((line) => line.trim().startsWith('// ── end of the README example'));
  const imports = source.find((line) => line.startsWith('import '));
  return `${imports}\n\n${source.slice(from + 1, to).map((line) => line.replace(/^ {4}/, '')).join('\n')}\n`;
}

describe('the README example', () => {
  it('is the code this file runs, and a user’s module running it prints what the README says', () => {
    const { code, prints } = readmeExample();
    expect(code).toBe(thisFilesExample());
    // As a user's ES module, outside vitest: Node resolves 'faultlab/durability' through package.json's "exports".
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout).toBe(`${prints}\n`);
  });
});

describe('faultlab/durability, composed as a user would', () => {
  it('retries a write that fails transiently twice, records it, and answers the same write again as a Duplicate', () => {
    const printed = vi.spyOn(console, 'log').mockImplementation(() => {});

    // ── the README example, as written there (README.md, "Using the pillars from your own code") ──
    const clock = new VirtualClock(); // virtual time: a backoff moves it, nothing sleeps
    const layer = new DurabilityLayer({ db: openDatabase(), clock, rng: new SeededRng(42) }); // in-memory SQLite, seeded jitter
    const note = { agentId: 'agent-1', operationType: 'memory_write', dependency: 'memory_service', content: { note: 'buy milk' } };

    let calls = 0; // the dependency: unavailable twice, then it writes the note
    const write = () => (++calls <= 2 ? fail('SERVICE_UNAVAILABLE', 'try again later') : succeed({ id: 'note-1' }));

    const first = layer.execute(note, write); // succeeded on attempt 3, after two backoffs
    const again = layer.execute(note, write); // the same note again: a duplicate, answered from the record
    if (first.kind !== 'succeeded' || again.kind !== 'duplicate') throw new Error(`${first.kind}, ${again.kind}`);
    console.log(first.kind, first.attempts, first.delaysMs, clock.nowMs(), again.kind, again.originalResult, calls);
    // ── end of the README example ──

    const lines = [...printed.mock.calls];
    printed.mockRestore();
    expect(lines).toEqual([['succeeded', 3, [200, 460], 660, 'duplicate', { id: 'note-1' }, 3]]);

    // The attempts and the backoffs: memory_write's policy (5 attempts, 200 ms doubling, additive30 jitter).
    const key = idempotencyKey('agent-1', 'memory_write', { note: 'buy milk' });
    expect(first).toEqual({ kind: 'succeeded', key, result: { id: 'note-1' }, attempts: 3, delaysMs: [200, 460] });
    expect(first.delaysMs[0]).toBeGreaterThanOrEqual(200);
    expect(first.delaysMs[0]).toBeLessThan(200 * 1.3);
    expect(first.delaysMs[1]).toBeGreaterThanOrEqual(400);
    expect(first.delaysMs[1]).toBeLessThan(400 * 1.3);
    expect(clock.nowMs()).toBe(200 + 460); // nothing slept: the backoffs moved the virtual clock

    // The idempotency record: the result, recorded when the third attempt succeeded.
    expect(layer.keyOf(note)).toBe(key);
    expect(layer.idempotency.peek(key)).toEqual({ key, status: 'done', result: { id: 'note-1' }, recordedAtMs: 660 });

    // The second call: a Duplicate with the original result, which never reached the dependency.
    expect(again).toEqual({ kind: 'duplicate', key, originalResult: { id: 'note-1' }, inProgress: false });
    expect(calls).toBe(3);

    // The same seed, the same delays.
    let again2 = 0;
    const replayed = new DurabilityLayer({ db: openDatabase(), clock: new VirtualClock(), rng: new SeededRng(42) }).execute(note, () =>
      ++again2 <= 2 ? fail('SERVICE_UNAVAILABLE', 'try again later') : succeed({ id: 'note-1' }),
    );
    expect(replayed).toMatchObject({ kind: 'succeeded', delaysMs: [200, 460] });
  });

  it('opens a breaker registry’s route once enough calls failed, refuses the next call, and admits a probe after the reset timeout', () => {
    const clock = new VirtualClock();
    const breakers = new BreakerRegistry({ db: openDatabase(), clock }); // the defaults: memory_service opens above 50 % failures of ≥ 10 results
    const transitions: StateTransition[] = [];
    breakers.onTransition((t) => transitions.push(t));

    for (let n = 1; n <= 10; n += 1) {
      expect(breakers.state('memory_service'), `before failure ${n}`).toBe('closed');
      const admission = breakers.beforeCall('memory_service');
      if (!admission.admitted) throw new Error(`refused call ${n}`);
      breakers.afterCall('memory_service', false, admission.ticket);
    }
    expect(transitions).toEqual([
      { dependency: 'memory_service', from: 'closed', to: 'open', failureRate: 1, requestCount: 10, resetTimeoutSeconds: 30, reason: 'failure_rate', atMs: 0 },
    ]);
    expect(breakers.state('memory_service')).toBe('open');
    expect(breakers.state('wiki_service')).toBe('closed'); // one route closed, the others open

    const refused = breakers.beforeCall('memory_service');
    expect(refused.admitted).toBe(false);
    if (refused.admitted) return;
    expect(refused.error).toBeInstanceOf(CircuitOpenError);
    expect(refused.error).toMatchObject({ code: 'CIRCUIT_OPEN', dependency: 'memory_service', state: 'open', retryAfterMs: 30_000, definite: true });

    clock.advance(30_000);
    expect(breakers.state('memory_service')).toBe('half_open');
    expect(breakers.beforeCall('memory_service')).toMatchObject({ admitted: true, probe: true });
  });
});
