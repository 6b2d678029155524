import type { Check } from '../check/types.js';
import type { DurabilityEvent } from '../durability/events.js';

/**
 * The shapes at the seam with the CLI: a pillar scenario (parsed YAML, validated against
 * scenarios/pillars/pillar.schema.json) goes in, a PillarRun comes out. A run is a value: the same
 * scenario and seed give the same events, figures and checks, and so the same text.
 */

export interface PillarScenario {
  kind: 'pillar';
  id: string;
  title: string;
  explain: string;
  [k: string]: unknown;
}

/** What the scenario itself does around the pillars: steps, the simulated dependency, crashes. */
export type ScenarioEvent =
  | { type: 'scenario.step'; atMs: number; text: string }
  | { type: 'scenario.note'; atMs: number; text: string }
  | { type: 'scenario.crash'; atMs: number; text: string }
  | { type: 'scenario.recovered'; atMs: number; text: string }
  | {
      type: 'dependency.call';
      atMs: number;
      dependency: string;
      operation: string;
      attempt: number;
      /** ok, lost_reply, or the error code answered. */
      response: string;
      effectApplied: boolean;
      /** false when the caller cannot know whether the effect happened (a lost reply). */
      definite: boolean;
    }
  /** Emitted before the breaker is asked; the breaker's own events say what it decided. */
  | { type: 'breaker.call'; atMs: number; n: number; dependency: string; answer: 'ok' | 'fail' | 'held' }
  | { type: 'layer.outcome'; atMs: number; label: string; kind: string; detail: string }
  | { type: 'phase.run'; atMs: number; taskId: string; phase: string; effects: number }
  | { type: 'race.try'; atMs: number; round: number; connection: string; answer: string; text: string }
  | { type: 'herd.summary'; atMs: number; strategy: string; totalAttempts: number; drainMs: number; gaveUp: number; slowestClient: number; slowestClientDelaysMs: number[] }
  | { type: 'herd.attempt'; atMs: number; strategy: string; client: number; attempt: number; served: boolean }
  | { type: 'herd.backoff'; atMs: number; strategy: string; client: number; afterAttempt: number; delayMs: number };

/** Every event carries the virtual time it happened at, in ms. */
export type PillarTraceEvent = DurabilityEvent | ScenarioEvent;

export interface PillarRun {
  id: string;
  title: string;
  explain: string;
  seed: number;
  events: PillarTraceEvent[];
  checks: Check[];
  figures: Record<string, unknown>;
  passed: boolean;
}
