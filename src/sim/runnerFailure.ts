/**
 * What the harness says of a runner that did not return a state, threw, or went on after a simulated crash —
 * one wording of it, as messages, for the one runner of src/sim/simulate.ts and the workers of src/sim/workers.
 */
import { message, namedError, saidOf, type Message, type Param } from '../core/message.js';
import type { RunnerState } from '../runner/state.js';
import type { SimCode } from './codes.js';
import type { RunnerFailure } from './Run.js';

export function looksLikeState(value: unknown): value is RunnerState {
  return typeof value === 'object' && value !== null && typeof (value as RunnerState).status === 'string';
}

/** A step that returned something that is not a state: what it returned, shortly. */
export function returnedNoState(step: number, value: unknown): RunnerFailure {
  return { step, name: 'TypeError', message: message<SimCode>('trace.stepReturned', { value: describe(value) }) };
}

/** What a runner threw, as the run's failure: its own text, or the harness's message when the harness made the error. */
export function failure(step: number, error: unknown): RunnerFailure {
  if (error instanceof Error) return { step, name: error.name, message: saidOf(error) ?? error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { step, name: 'Error', message: message<SimCode>('trace.threwNonError', { value: String(error) }) };
}

/** The runner caught the crash and threw something else (`Name: its message`). */
export function crashCaughtThrew(error: unknown): Message<SimCode> {
  return message<SimCode>('trace.crashCaught.threw', { what: namedError(error) });
}

/** The runner caught the crash and returned from its step as if nothing had happened. */
export function crashCaughtReturned(): Message<SimCode> {
  return message<SimCode>('trace.crashCaught.returned');
}

function describe(value: unknown): Param {
  if (value === undefined) return message<SimCode>('trace.stepReturnedUndefined');
  return JSON.stringify(value)?.slice(0, 80) ?? String(value);
}
