/**
 * The explorations already made in this grade, shared by every submission it grades: the reference's of each
 * scenario (recorded once, in threads of their own: transcripts.ts) and every submission's that ran clean. A grading
 * thread asks for those whose run as written is its runner's, and holds its runner to each (worker.ts, `heldTo`);
 * when none is left to try, it explores the scenario itself, recording — and a thread that asks the same question
 * meanwhile waits for that exploration rather than making it twice. A class of thirty is thirty checks, plus one
 * exploration for each way of answering the harness that the class has.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../core/workerThread.js';
import type { Scenario } from '../scenario/types.js';
import type { FromHarness, TranscriptsJob } from './job.js';
import { explorationKey, recordedExplorations, type ScenarioTranscripts } from './transcripts.js';

interface Entry {
  /** The reference's exploration, recorded (null: it could not be, or a rule broke in it). */
  reference: Promise<ScenarioTranscripts | null>;
  /** The submissions' explorations, in the order they were recorded. */
  sets: ScenarioTranscripts[];
  /** Explorations under way, by the digest of their run as written, and the thread making each. */
  flying: Map<string, { done: Promise<void>; land: () => void; by: Worker }>;
}

export class Explorations {
  readonly #entries = new Map<string, Entry>();
  readonly #threads: number;

  /** `threads`: how many threads record the reference's explorations (one per core, at most two). */
  constructor(threads = 2) {
    this.#threads = Math.max(1, threads);
  }

  /** Start recording the reference's exploration of each of these scenarios not yet recorded (or under way). */
  prepare(scenarios: readonly Scenario[], seed: number): void {
    const candidates = scenarios.map((scenario, index) => ({ scenario, index })).filter(({ scenario }) => scenario.workers === undefined && !this.#entries.has(keyOf(scenario, seed)));
    // Those the build recorded (the shipped graded set, the default seed) are not recorded again.
    const built = recordedExplorations();
    const missing = candidates.filter(({ scenario }) => {
      const set = built.get(keyOf(scenario, seed));
      if (set === undefined) return true;
      this.#entries.set(keyOf(scenario, seed), { reference: Promise.resolve(set.explored === null ? null : set), sets: [], flying: new Map() });
      return false;
    });
    if (missing.length === 0) return;
    const settle = new Map<number, (set: ScenarioTranscripts | null) => void>();
    for (const { scenario, index } of missing) {
      const reference = new Promise<ScenarioTranscripts | null>((resolve) => settle.set(index, resolve));
      this.#entries.set(keyOf(scenario, seed), { reference, sets: [], flying: new Map() });
    }
    const threads = Math.min(this.#threads, missing.length);
    for (let t = 0; t < threads; t += 1) {
      const indices = missing.filter((_, i) => i % threads === t).map(({ index }) => index);
      const job: TranscriptsJob = { scenarios: [...scenarios], indices, seed };
      const thread = startWorker(import.meta.url, 'grade', { workerData: job });
      thread.on('message', (message: FromHarness) => {
        if (message.type !== 'transcripts') return;
        settle.get(message.index)?.(message.set.explored === null ? null : message.set);
        settle.delete(message.index);
      });
      // A thread that ended without recording some (it failed): those are explored by each submission, as before.
      thread.on('exit', () => indices.forEach((index) => settle.get(index)?.(null)));
      thread.on('error', () => {});
    }
  }

  /**
   * The explorations of `scenario` whose run as written has the digest `asWritten`, after the first `after` of
   * them; when there are none, `explore`, and `by` is the thread that will (told `recorded`, or `release`d).
   */
  async sets(scenario: Scenario, seed: number, asWritten: string, after: number, by: Worker, onWait?: (waiting: boolean) => void): Promise<{ sets: ScenarioTranscripts[]; explore: boolean }> {
    const entry = this.#entries.get(keyOf(scenario, seed));
    if (entry === undefined) return { sets: [], explore: true };
    const reference = await entry.reference;
    for (;;) {
      const all = [...(reference !== null ? [reference] : []), ...entry.sets].filter((set) => set.asWritten === asWritten);
      if (all.length > after) return { sets: all.slice(after), explore: false };
      const flying = entry.flying.get(asWritten);
      if (flying === undefined) break;
      onWait?.(true);
      await flying.done;
      onWait?.(false);
    }
    let land = () => {};
    const done = new Promise<void>((resolve) => (land = resolve));
    entry.flying.set(asWritten, { done, land, by });
    return { sets: [], explore: true };
  }

  /** A thread explored `scenario` as asked: its exploration, recorded (null: not one to keep). */
  recorded(scenario: Scenario, seed: number, asWritten: string, set: ScenarioTranscripts | null): void {
    const entry = this.#entries.get(keyOf(scenario, seed));
    if (entry === undefined) return;
    if (set !== null) entry.sets.push(set);
    const flying = entry.flying.get(asWritten);
    entry.flying.delete(asWritten);
    flying?.land();
  }

  /** A grading thread ended: the explorations it was making are not coming. */
  release(by: Worker): void {
    for (const entry of this.#entries.values()) {
      for (const [asWritten, flying] of entry.flying) {
        if (flying.by !== by) continue;
        entry.flying.delete(asWritten);
        flying.land();
      }
    }
  }
}

const keys = new WeakMap<Scenario, Map<number, string>>();

/** A scenario's exploration is found by its content and seed (transcripts.ts), the same wherever it was read from. */
function keyOf(scenario: Scenario, seed: number): string {
  let bySeed = keys.get(scenario);
  if (bySeed === undefined) keys.set(scenario, (bySeed = new Map()));
  let key = bySeed.get(seed);
  if (key === undefined) bySeed.set(seed, (key = explorationKey(scenario, seed)));
  return key;
}
