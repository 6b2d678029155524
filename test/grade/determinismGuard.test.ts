/**
 * The determinism guard, in this thread: while learner code runs, every way of reading the clock, rolling
 * dice or arming a real timer throws a DeterminismError naming the call; outside it, nothing is touched.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DeterminismError, isDeterminismError, withDeterminismGuard } from '../../src/runner/determinismGuard.js';
import { word } from '../../src/render/words/index.js';

function callNamed(fn: () => unknown): string {
  try {
    withDeterminismGuard(fn);
  } catch (error) {
    if (isDeterminismError(error)) return error.call;
    throw error;
  }
  return 'nothing was refused';
}

describe('withDeterminismGuard', () => {
  it.each([
    ['Math.random()', () => Math.random()],
    ['Date.now()', () => Date.now()],
    ['new Date()', () => new Date()],
    ['Date()', () => (Date as unknown as () => string)()],
    ['performance.now()', () => performance.now()],
    ['crypto.randomUUID()', () => crypto.randomUUID()],
    ['crypto.getRandomValues()', () => crypto.getRandomValues(new Uint8Array(4))],
    ['setTimeout()', () => setTimeout(() => {}, 0)],
    ['setInterval()', () => setInterval(() => {}, 10)],
    ['setImmediate()', () => setImmediate(() => {})],
    ["crypto.randomUUID() (imported from 'node:crypto')", () => randomUUID()],
  ])('refuses %s and names it', (name, fn) => {
    expect(callNamed(fn)).toBe(name.replace(/ \(imported.*$/, ''));
  });

  it('explains what to do instead (a message, worded where it is shown)', () => {
    let refusal: unknown;
    try {
      withDeterminismGuard(() => Math.random());
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DeterminismError);
    expect(word('en', (refusal as DeterminismError).said)).toBe(
      'step() called Math.random(): a runner must be deterministic — the same state, the same step, or a recovery after a crash could take another path. The key comes from this.prepare(task, action); time and chance belong to the simulator.',
    );
  });

  it('allows a date built from a given time, and everything else a step needs', () => {
    expect(withDeterminismGuard(() => new Date(0).toISOString())).toBe('1970-01-01T00:00:00.000Z');
    expect(withDeterminismGuard(() => new Date(0) instanceof Date)).toBe(true);
    expect(withDeterminismGuard(() => JSON.stringify({ max: Math.max(1, 2) }))).toBe('{"max":2}');
  });

  it('throws the refusal again when the learner catches it and carries on', () => {
    const swallowing = () => {
      try {
        return Math.random();
      } catch {
        return 0.5; // "whatever"
      }
    };
    expect(callNamed(swallowing)).toBe('Math.random()');
  });

  it('prefers the refusal to whatever the learner threw after catching it', () => {
    const rethrowing = () => {
      try {
        Date.now();
      } catch {
        throw new Error('no clock, no problem');
      }
    };
    expect(callNamed(rethrowing)).toBe('Date.now()');
  });

  it('puts every global back afterwards, also after a throw', () => {
    const before = [Math.random, Date, performance.now, setTimeout, crypto.randomUUID];
    expect(() => withDeterminismGuard(() => Math.random())).toThrow(DeterminismError);
    withDeterminismGuard(() => 1);
    expect([Math.random, Date, performance.now, setTimeout, crypto.randomUUID]).toEqual(before);
    expect(typeof Math.random()).toBe('number');
    expect(typeof randomUUID()).toBe('string');
  });

  it('recognises its error across module copies by a global brand', () => {
    const copy = Object.defineProperty(new Error('x'), Symbol.for('faultlab.DeterminismError'), { value: true });
    expect(copy instanceof DeterminismError).toBe(true);
    expect(new Error('x') instanceof DeterminismError).toBe(false);
  });
});
