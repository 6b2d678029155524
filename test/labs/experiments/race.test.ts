import { describe, expect, it } from 'vitest';
import { ORDERS } from '../../../src/labs/experiments/race.js';
import { runLab } from '../../../src/labs/index.js';
import { loadLab, plain } from '../helpers.js';

/**
 * Two callers each read a key and then write it: six orders of four steps. The figures are what two real
 * connections to one SQLite file were told, order by order — not a script's conclusion. The same
 * measurement that finds two News in four orders of check-then-record must find none for checkAndRecord.
 */

const run = (seed = 42) => runLab(loadLab('concurrent_check_and_record'), { seed });
type RaceFigures = {
  orders: string[];
  naive_new_per_order: number[];
  naive_both_new: number;
  cas_new_per_order: number[];
  cas_duplicates_per_order: number[];
  cas_both_new: number;
  cas_busy_refusals: number;
};
const RUN = run();
const F = RUN.figures as RaceFigures;
const TEXT = plain(RUN);

describe('every order of two check-then-write callers', () => {
  it('plays the six interleavings of a’s read and write with b’s, each once', () => {
    expect(ORDERS.map((o) => o.join(' '))).toEqual(['a a b b', 'a b a b', 'a b b a', 'b a a b', 'b a b a', 'b b a a']);
    expect(F.orders).toEqual(ORDERS.map((o) => o.join(' ')));
  });
});

describe('check, then record: two transactions', () => {
  it('tells both callers New in the four orders where both read before either wrote', () => {
    expect(F.naive_new_per_order).toEqual([1, 2, 2, 2, 2, 1]);
    expect(F.naive_both_new).toBe(4);
  });

  it('shows both applying the effect in the trace', () => {
    expect(TEXT).toContain('    10ms  naive [a b a b] b: New — b checks: nobody has the key');
    expect(TEXT).toContain('    10ms  naive [a b a b] b: b records the key, sure it is the first — and applies the effect');
  });
});

describe('checkAndRecord: one write transaction', () => {
  it('tells exactly one caller New in every order, the other Duplicate', () => {
    expect(F.cas_new_per_order).toEqual([1, 1, 1, 1, 1, 1]);
    expect(F.cas_duplicates_per_order).toEqual([1, 1, 1, 1, 1, 1]);
    expect(F.cas_both_new).toBe(0);
  });

  it('refuses the write lock to the second reader in exactly the four orders that fooled check-then-record', () => {
    expect(F.cas_busy_refusals).toBe(4);
    const busy = RUN.events.flatMap((e) => (e.type === 'race.try' && e.protocol === 'cas' && e.answer === 'busy' ? [e.order] : []));
    const fooled = F.orders.filter((_, i) => F.naive_new_per_order[i] === 2);
    expect(busy).toEqual(fooled);
  });

  it('draws nothing from the seed: every seed plays the same orders to the same answers', () => {
    const other = run(7);
    expect(other.figures).toEqual(F);
    expect(plain(other).replace('seed 7', 'seed 42')).toBe(TEXT);
  });
});
