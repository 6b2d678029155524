/**
 * What a box hands the harness, checked before the harness uses it: the state a step returns, and the
 * arguments of every call the learner's runner makes (a state to save and its label, an action to send and its
 * attempt). The harness's code reads these as the runner state of docs/spec.md §4; a value of another shape —
 * a state without its counters, a label that is a number, a pending action without a name — is the runner's
 * failure, said as such, never an error deep in faultlab's own code. Shape only: what the values mean is the
 * checks' business.
 */
import { message, MessageError, type Message, type Params } from '../core/message.js';
import type { BoxCode } from './codes.js';

const say = (code: BoxCode, params?: Params): Message<BoxCode> => message(code, params);

/** Nested objects and lists in one value: a runner's state is a few levels deep. */
export const MAX_VALUE_DEPTH = 64;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** How deep a JSON value nests, counted without recursion (so a hostile depth cannot overflow the stack). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [at, depth] = stack.pop()!;
    if (typeof at !== 'object' || at === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_VALUE_DEPTH) return deepest;
    for (const child of Object.values(at)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Why `value` is not a tool action (`{kind: 'tool', name, args}`), or null. */
function actionProblem(value: unknown, field: string): Message<BoxCode> | null {
  if (!isObject(value)) return say('box.value.notObject', { field });
  if (value.kind !== 'tool') return say('box.value.wrong', { field: `${field}.kind`, expected: "'tool'" });
  if (typeof value.name !== 'string') return say('box.value.wrong', { field: `${field}.name`, expected: say('box.value.aString') });
  if (!isObject(value.args)) return say('box.value.notObject', { field: `${field}.args` });
  return null;
}

/** Why `value` is not a runner state the harness can take, or null. */
export function stateProblem(value: unknown): Message<BoxCode> | null {
  if (!isObject(value)) return say('box.value.notObject', { field: 'state' });
  if (depthOf(value) > MAX_VALUE_DEPTH) return say('box.value.tooDeep', { field: 'state', max: MAX_VALUE_DEPTH });
  if (!isObject(value.task)) return say('box.value.notObject', { field: 'state.task' });
  if (typeof value.status !== 'string') return say('box.value.wrong', { field: 'state.status', expected: say('box.value.aString') });
  for (const field of ['attempts', 'calls', 'decisions'] as const) {
    if (!isCount(value[field])) return say('box.value.wrong', { field: `state.${field}`, expected: say('box.value.aCount') });
  }
  if (value.pending !== null) {
    const problem = actionProblem(value.pending, 'state.pending');
    if (problem !== null) return problem;
  }
  if (!isObject(value.observations)) return say('box.value.notObject', { field: 'state.observations' });
  if (value.result !== null && !isObject(value.result)) return say('box.value.wrong', { field: 'state.result', expected: say('box.value.nullOrObject') });
  return null;
}

/** Why the arguments of a call to the runner's deps (`target.method(...args)`) are not what the harness takes, or null. */
export function callProblem(target: string, method: string, args: unknown[]): Message<BoxCode> | null {
  if (target === 'events' && method === 'save') {
    if (typeof args[1] !== 'string') return say('box.value.wrong', { field: 'label', expected: say('box.value.aString') });
    return stateProblem(args[0]);
  }
  if (target === 'policy') return stateProblem(args[0]);
  if (target === 'db') return paramsProblem(args[1]);
  if (target === 'tools') {
    const problem = actionProblem(args[0], 'action');
    if (problem !== null) return problem;
    const at = args[1];
    if (!isObject(at) || typeof at.taskId !== 'string' || !isCount(at.call) || !isCount(at.attempt)) return say('box.value.wrong', { field: 'at', expected: '{ taskId, call, attempt }' });
    if (depthOf(args[0]) > MAX_VALUE_DEPTH) return say('box.value.tooDeep', { field: 'action', max: MAX_VALUE_DEPTH });
  }
  return null;
}

const isSqlValue = (value: unknown) => value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** Why a worker's statement parameters (an object of names, or a list) are not what SQLite may bind, or null. */
function paramsProblem(params: unknown): Message<BoxCode> | null {
  if (params === undefined) return null;
  const values = Array.isArray(params) ? params : isObject(params) ? Object.values(params) : null;
  if (values === null || values.length > 100 || !values.every(isSqlValue)) return say('box.worker.sqlParams');
  return null;
}

/** The learner's runner handed the harness a value it cannot take: that run fails with this, as the runner's error. */
export class LearnerValueError extends MessageError {
  override readonly name = 'TypeError';
}
