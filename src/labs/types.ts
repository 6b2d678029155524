import type { Check } from '../check/types.js';
import type { Message, Param, Said } from '../core/message.js';
import type { DurabilityEvent } from '../durability/events.js';
import type { ScenarioWords } from '../scenario/words.js';

/**
 * The shapes at the seam with the CLI: a lab (parsed YAML, `kind: lab`, validated against
 * scenarios/labs/lab.schema.json) goes in, a LabRun comes out. A run is a value: the same lab and seed
 * give the same events, figures and checks, and so the same text.
 */

export interface LabScenario {
  kind: 'lab';
  id: string;
  title: string;
  explain: string;
  /** The title and explanation in Chinese, when the lab gives them (`zh:`). */
  zh?: ScenarioWords;
  experiment: string;
  [k: string]: unknown;
}

/**
 * What the lab itself does around the pillars: its steps, its simulated callers. Its words are messages (a
 * note is the lab's own text, its Chinese beside it when the file gives one), worded by the renderer.
 */
export type LabEvent =
  | { type: 'scenario.step'; atMs: number; text: Said }
  | { type: 'scenario.note'; atMs: number; text: Said; zh?: string }
  /** Emitted before the breaker is asked; the breaker's own events say what it decided. */
  | { type: 'breaker.call'; atMs: number; n: number; dependency: string; answer: 'ok' | 'fail' | 'held' }
  /** How a labelled step of a lab ended, in a few words (the idempotency lab's answers). */
  | { type: 'lab.outcome'; atMs: number; label: string; kind: string; detail: Param }
  | { type: 'race.try'; atMs: number; protocol: 'naive' | 'cas'; order: string; connection: string; answer: string; text: Message }
  | { type: 'herd.summary'; atMs: number; strategy: string; totalAttempts: number; drainMs: number; gaveUp: number; slowestClient: number; slowestClientDelaysMs: number[] }
  | { type: 'herd.attempt'; atMs: number; strategy: string; client: number; attempt: number; served: boolean }
  | { type: 'herd.backoff'; atMs: number; strategy: string; client: number; afterAttempt: number; delayMs: number };

/** Every event carries the virtual time it happened at, in ms. */
export type LabTraceEvent = DurabilityEvent | LabEvent;

export interface LabRun {
  id: string;
  /** The lab's English words; renderers show wordsOf(run) (src/scenario/words.ts), its Chinese when it has some. */
  title: string;
  explain: string;
  zh?: ScenarioWords;
  experiment: string;
  seed: number;
  events: LabTraceEvent[];
  checks: Check[];
  figures: Record<string, unknown>;
  passed: boolean;
}
