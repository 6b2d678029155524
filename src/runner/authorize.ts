/**
 * Authorization (docs/spec.md §4): the tool must be in the task's `allow` list and any `item` argument among the
 * task's `items`. The runner checks it when it decides and again before every attempt: an idempotency key
 * is not a permission, and a retry does not inherit one.
 */
import { refuse } from '../inventory/refusals.js';
import type { Task } from '../scenario/types.js';
import type { Action } from './state.js';

export function authorize(task: Task, action: Action): void {
  if (action.kind !== 'tool') return;
  if (!task.allow.includes(action.name)) {
    throw refuse('NOT_AUTHORIZED', 'toolNotAllowed', { tool: action.name, task: task.id, allowed: task.allow.join(', ') });
  }
  const item = action.args.item;
  if (item !== undefined && !task.items.includes(item as string)) {
    throw refuse('NOT_AUTHORIZED', 'itemNotAllowed', { item: JSON.stringify(item), task: task.id, allowed: task.items.join(', ') });
  }
}
