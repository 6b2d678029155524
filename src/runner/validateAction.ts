/**
 * What a well-formed action looks like. A policy may return anything; the runner accepts only what this
 * says, and refuses the rest with ContractError INVALID_ACTION (which the step turns into `policy_error`).
 */
import { refuse } from '../inventory/refusals.js';
import type { ToolName } from '../scenario/types.js';
import type { Action } from './state.js';
import { jsonCopy } from '../core/canonical.js';

/** Required arguments per tool; `key` is optional on reserve (the runner adds it). */
export const REQUIRED_ARGS: Readonly<Record<ToolName, readonly string[]>> = {
  search_docs: ['query'],
  read_doc: ['doc_id'],
  get_stock: ['item'],
  reserve: ['item', 'qty', 'expected_version'],
  // docs/spec.md §13–§14: a compensation, the end of a task, the keyless service's charge and status query
  release: ['item', 'qty', 'of'],
  close_task: [],
  charge: ['ref', 'amount'],
  charge_status: ['ref'],
};

const FINISH_STATUSES = ['succeeded', 'gave_up'];

export function validateAction(action: unknown): Action {
  if (typeof action !== 'object' || action === null) {
    throw refuse('INVALID_ACTION', 'notAnAction', { action: String(JSON.stringify(action)) });
  }
  const a = action as Record<string, unknown>;
  if (a.kind === 'finish') {
    if (!FINISH_STATUSES.includes(a.status as string)) {
      throw refuse('INVALID_ACTION', 'finishStatus', { status: String(JSON.stringify(a.status)), allowed: FINISH_STATUSES.join(', ') });
    }
    return { kind: 'finish', status: a.status as 'succeeded' | 'gave_up' };
  }
  if (a.kind !== 'tool') throw refuse('INVALID_ACTION', 'unknownKind', { kind: String(JSON.stringify(a.kind)) });
  const name = a.name;
  if (typeof name !== 'string' || !Object.hasOwn(REQUIRED_ARGS, name)) {
    throw refuse('INVALID_ACTION', 'unknownTool', { tool: String(JSON.stringify(name)) });
  }
  const args = a.args;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw refuse('INVALID_ACTION', 'needsArgs', { tool: name });
  }
  const required = REQUIRED_ARGS[name as ToolName];
  const missing = required.filter((field) => !Object.hasOwn(args, field));
  if (missing.length > 0) throw refuse('INVALID_ACTION', 'needsFields', { tool: name, required: required.join(', '), missing: missing.join(', ') });
  if (name === 'reserve') {
    const { qty, expected_version, key } = args as Record<string, unknown>;
    if (!Number.isInteger(qty) || (qty as number) < 1) {
      throw refuse('INVALID_ACTION', 'needsPositiveQty', { tool: 'reserve', got: String(JSON.stringify(qty)) });
    }
    if (!Number.isInteger(expected_version)) {
      throw refuse('INVALID_ACTION', 'needsIntegerVersion', { tool: 'reserve', got: String(JSON.stringify(expected_version)) });
    }
    if (key !== undefined && (typeof key !== 'string' || key === '')) {
      throw refuse('INVALID_ACTION', 'keyNonEmpty', { tool: 'reserve' });
    }
  }
  if (name === 'release') {
    const { qty, key } = args as Record<string, unknown>;
    if (!Number.isInteger(qty) || (qty as number) < 1) throw refuse('INVALID_ACTION', 'needsPositiveQty', { tool: 'release', got: String(JSON.stringify(qty)) });
    if (key !== undefined && (typeof key !== 'string' || key === '')) throw refuse('INVALID_ACTION', 'keyNonEmpty', { tool: 'release' });
  }
  if (name === 'charge' || name === 'charge_status') {
    const { ref, amount } = args as Record<string, unknown>;
    if (typeof ref !== 'string' || ref === '') throw refuse('INVALID_ACTION', 'needsRef', { tool: name, got: String(JSON.stringify(ref)) });
    if (name === 'charge' && (!Number.isInteger(amount) || (amount as number) < 1)) {
      throw refuse('INVALID_ACTION', 'positiveAmount', { got: String(JSON.stringify(amount)) });
    }
  }
  return { kind: 'tool', name, args: jsonCopy(args) as Record<string, unknown> };
}
