/**
 * The policy decides what to do next; the runner carries it out. The scripted policy is stateless: its
 * answer is `script[state.decisions]` (finish when the script is done), so it answers the same after a
 * crash. Arguments may refer to earlier observations: `"@get_stock.version"`, `"@search_docs.0"`.
 *
 * A step may carry a condition (docs/spec.md §14.6): `when: { "@charge.status": declined }` — taken only when
 * every reference equals its value, else skipped. Still stateless: the next step is the one after the
 * `decisions` steps taken so far, each condition read from the observations (which a later step never
 * replaces: the scenario loader holds that).
 */
import { sameJson } from '../core/canonical.js';
import type { ScriptStep, StepCondition } from '../scenario/types.js';
import type { RunnerState } from './state.js';

export interface Policy {
  /** Receives a deep copy of the state; may return anything (the runner validates it). */
  nextAction(state: RunnerState): unknown;
}

export class ReferenceNotFoundError extends Error {
  override readonly name = 'ReferenceNotFoundError';
  readonly reference: string;

  constructor(reference: string) {
    super(`${reference} refers to an observation the runner does not have`);
    this.reference = reference;
  }
}

export class ScriptedPolicy implements Policy {
  readonly script: readonly ScriptStep[];

  readonly #conditional: boolean;

  constructor(script: readonly ScriptStep[]) {
    this.script = script;
    this.#conditional = script.some((step) => step.when !== undefined);
  }

  /** The step after the `decisions` taken ones, skipping each whose condition does not hold. */
  #taken(state: RunnerState): ScriptStep | undefined {
    let taken = 0;
    for (const step of this.script) {
      if (step.when !== undefined && !holds(step.when, state.observations)) continue;
      if (taken === state.decisions) return step;
      taken += 1;
    }
    return undefined;
  }

  nextAction(state: RunnerState): unknown {
    const step = this.#conditional ? this.#taken(state) : this.script[state.decisions];
    if (step === undefined) return { kind: 'finish', status: 'succeeded' };
    if (step.kind === 'finish') return { kind: 'finish', status: step.status };
    const args: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(step.args)) args[name] = resolve(value, state.observations);
    return { kind: 'tool', name: step.name, args };
  }
}

/** Every reference of the condition resolves to its value (a missing observation throws, as in an argument). */
export function holds(when: StepCondition, observations: Record<string, unknown>): boolean {
  return Object.entries(when).every(([ref, value]) => sameJson(resolve(ref, observations), value));
}

export function isReference(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('@');
}

/** `"@get_stock.version"` → observations.get_stock.version; other values pass through. */
export function resolve(value: unknown, observations: Record<string, unknown>): unknown {
  if (!isReference(value)) return value;
  let node: unknown = observations;
  for (const part of value.slice(1).split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) throw new ReferenceNotFoundError(value);
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}
