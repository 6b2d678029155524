/**
 * The reserve's key and fingerprint (docs/spec.md §3).
 *
 * The idempotency key is bound to the *intent* — task, item, quantity — and is made once, when the
 * runner prepares the action; every retry carries the same key. It is the project's one key derivation
 * (core/key.ts) with the task as owner and `reserve` as the operation. The fingerprint covers every
 * reserve argument except the key (so it includes `expected_version`): the tool uses it to tell a faithful
 * retry (same key, same fingerprint → the original receipt) from a caller reusing a key for something
 * else (same key, other fingerprint → PAYLOAD_CONFLICT).
 */
import { canonicalJson, sha256Hex } from '../core/canonical.js';
import { idempotencyKey } from '../core/key.js';

export interface ReserveArgs {
  item: string;
  qty: number;
  expected_version: number;
  key: string;
}

/** `{task_id}:reserve:{hash of {item, qty}}`: the same intent always gets the same key. */
export function reserveKey(taskId: string, args: { item: unknown; qty: unknown }): string {
  return idempotencyKey(taskId, 'reserve', { item: args.item, qty: args.qty });
}

/** `{task_id}:release:{hash of {item, qty, of}}`: the compensation of one reservation always gets the same key. */
export function releaseKey(taskId: string, args: { item: unknown; qty: unknown; of: unknown }): string {
  return idempotencyKey(taskId, 'release', { item: args.item, qty: args.qty, of: args.of });
}

export function fingerprint(args: Record<string, unknown>): string {
  const { key: _key, ...rest } = args;
  return sha256Hex(canonicalJson(rest));
}
