import seedrandom from 'seedrandom';

/**
 * Chance, as a parameter. Every random draw in faultlab comes from an Rng made from a seed, so the same
 * seed replays the same run. There is no unseeded randomness anywhere in the simulator.
 */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** `digits` lowercase hex characters. */
  hex(digits: number): string;
}

/**
 * seedrandom's ARC4 generator as seeding leaves it (RC4-drop[256] keyed by the seed): the same for every
 * stream made from the same seed, so it is made once per seed and copied. Seeding costs ~770 steps of ARC4
 * and a string round trip each time; an exploration makes two streams per run, with the same two seeds.
 */
interface Arc4 {
  i: number;
  j: number;
  S: Uint8Array;
}

const seeded = new Map<string, Arc4>();
/** A long-lived process meets few seeds; past this many, start again rather than grow. */
const SEEDS_KEPT = 1024;

function arc4After(seed: string): Arc4 {
  let state = seeded.get(seed);
  if (state === undefined) {
    const { i, j, S } = seedrandom(seed, { state: true }).state();
    if (seeded.size >= SEEDS_KEPT) seeded.clear();
    seeded.set(seed, (state = { i, j, S: Uint8Array.from(S) }));
  }
  return { i: state.i, j: state.j, S: state.S.slice() };
}

export class SeededRng implements Rng {
  readonly seed: string;
  readonly #arc4: Arc4;

  constructor(seed: number | string) {
    this.seed = String(seed);
    this.#arc4 = arc4After(this.seed);
  }

  /** seedrandom's `quick()`: four ARC4 outputs as a 32-bit fraction (test/core/rng.test.ts holds them equal). */
  next(): number {
    const arc4 = this.#arc4;
    const s = arc4.S;
    let { i, j } = arc4;
    let r = 0;
    for (let n = 0; n < 4; n += 1) {
      i = (i + 1) & 255;
      const t = s[i]!;
      j = (j + t) & 255;
      s[i] = s[j]!;
      s[j] = t;
      r = r * 256 + s[(s[i]! + t) & 255]!;
    }
    arc4.i = i;
    arc4.j = j;
    return r / 0x100000000;
  }

  int(min: number, max: number): number {
    if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) {
      throw new RangeError(`int(${min}, ${max}): need integers with min <= max`);
    }
    return min + Math.floor(this.next() * (max - min + 1));
  }

  hex(digits: number): string {
    let out = '';
    while (out.length < digits) out += this.int(0, 15).toString(16);
    return out;
  }

  /** An independent stream for one consumer, so adding draws in one place does not shift another's. */
  fork(label: string): SeededRng {
    return new SeededRng(`${this.seed}/${label}`);
  }
}
