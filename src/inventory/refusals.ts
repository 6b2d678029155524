/**
 * The tools' refusals as templates: what follows the code in a ContractError's message (`STALE_VERSION: expected
 * version 0, found 1`). A refusal travels as text — it is the error a learner's step catches, its `message` is
 * what a runner stores in its state (`result.error`) and what crosses the box's wire — so the English is built
 * here, from one template each, and a renderer that speaks another language reads the template back out of the
 * text and words it in its own (src/render/words/toolText.ts; the Chinese in src/render/words/zh/refusal.ts).
 * A template's placeholders are `{name}`; the English is the tool's own, unchanged by the words around it.
 */
import { ContractError, type ContractCode } from './errors.js';

export const REFUSALS = {
  unknownTool: 'unknown tool {tool}',
  noRemote: 'unknown tool {tool}: this scenario has no remote service',
  noDoc: 'no doc {doc}',
  noItem: 'no item {item} in stock',
  payloadConflict:
    'key {key} already holds the receipt of another request ({heldItem} ×{heldQty}); this one asks {item} ×{qty} at expected_version {version} — resend the original arguments, or give a new intent its own key',
  payloadConflictShort: 'key {key} already holds the receipt of another request',
  staleVersion: 'expected version {expected}, found {found}',
  insufficientStock: '{available} available, {asked} asked',
  purged: 'the receipt of key {key} was purged at {purged} ms (written at {written} ms) — it is not run again',
  purgedSame: 'the receipt of key {key} was purged at {purged} ms (written at {written} ms): this very request took effect then — it is not run again',
  taskFinished: 'task {task} finished at {ms} ms: it takes no new effect',
  noDeadline: 'this tool refuses a write without a deadline: give not_after_ms (virtual ms)',
  deadlineTooFar: 'not_after_ms {deadline} is more than {validity} ms away (now {now} ms): no request may stay valid that long',
  expired: "the request's deadline passed at {deadline} ms (now {now} ms): not run",
  nothingToRelease: 'task {task} holds no reservation {of} of {item} ×{qty} to release',
  noFinishedTasks: 'close_task: this tool keeps no finished tasks (a scenario past the chapter does: docs/spec.md §13)',
  badOutbox: "a reserve's outbox must be { charge: { ref: a non-empty string, amount: a positive integer } }",
  needsString: '{tool} needs a string {field}, got {got}',
  needsStringItem: '{tool} needs a string item',
  needsPositiveQty: '{tool} needs a positive integer qty, got {got}',
  needsIntegerVersion: '{tool} needs an integer expected_version, got {got}',
  needsKey: '{tool} needs an idempotency key',
  needsOf: 'release needs the reservation it compensates: of = a reservation_id',
  toolNotAllowed: 'tool {tool} is not allowed for task {task} (allowed: {allowed})',
  itemNotAllowed: 'item {item} is not allowed for task {task} (allowed: {allowed})',
  needsPending: 'execute() needs a pending action',
  notAnAction: 'not an action: {action}',
  finishStatus: 'finish with status {status} (allowed: {allowed})',
  unknownKind: 'unknown action kind {kind}',
  needsArgs: '{tool} needs an args object',
  needsFields: '{tool} needs {required} (missing {missing})',
  keyNonEmpty: 'a {tool} key, when given, must be a non-empty string',
  needsRef: '{tool} needs a non-empty string ref, got {got}',
  needsRefShort: '{tool} needs a non-empty string ref',
  positiveAmount: 'charge needs a positive integer amount, got {got}',
  // the task queue's fence (src/queue/QueueStore.ts): a holder's write under a token that is no longer the task's
  staleFenceMissing: '{what} of {task} under token {token} by {owner} refused: the task is no such task',
  staleFenceHeld: '{what} of {task} under token {token} by {owner} refused: the task is held by {holder} under token {now}',
  staleFenceQueued: '{what} of {task} under token {token} by {owner} refused: the task is back in the queue after token {now}',
  staleFenceEnded: '{what} of {task} under token {token} by {owner} refused: the task is {state} (token {now})',
  staleFenceOwnCheck: "{owner}'s own check: its lease on {task} is gone",
} as const;

export type RefusalKey = keyof typeof REFUSALS;

/** A refusal's English, its template filled. */
export function refusalText(key: RefusalKey, params: Readonly<Record<string, string | number>>): string {
  return REFUSALS[key].replace(/\{([a-zA-Z]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`refusal ${key} needs {${name}}`);
    return String(value);
  });
}

/** The tool's refusal: a ContractError with its code and the template's English. */
export function refuse(code: ContractCode, key: RefusalKey, params: Readonly<Record<string, string | number>> = {}): ContractError {
  return new ContractError(code, refusalText(key, params));
}
