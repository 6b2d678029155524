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

export class SeededRng implements Rng {
  readonly seed: string;
  readonly #prng: seedrandom.PRNG;

  constructor(seed: number | string) {
    this.seed = String(seed);
    this.#prng = seedrandom(this.seed);
  }

  next(): number {
    return this.#prng.quick();
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
