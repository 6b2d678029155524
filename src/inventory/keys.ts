/**
 * Keys and fingerprints (SPEC §3).
 *
 * The idempotency key is bound to the *intent* — task, item, quantity — and is made once, when the
 * runner prepares the action; every retry carries the same key. The fingerprint covers every reserve
 * argument except the key (so it includes `expected_version`): the tool uses it to tell a faithful retry
 * (same key, same fingerprint → the original receipt) from a caller reusing a key for something else
 * (same key, other fingerprint → PAYLOAD_CONFLICT).
 */
import { KEY_DIGEST_HEX } from '../defaults.js';
import { canonicalJson, sha256Hex } from '../sim/canonical.js';

export interface ReserveArgs {
  item: string;
  qty: number;
  expected_version: number;
  key: string;
}

export function idempotencyKey(taskId: string, args: { item: unknown; qty: unknown }): string {
  const digest = sha256Hex(canonicalJson({ item: args.item, qty: args.qty }));
  return `${taskId}:reserve:${digest.slice(0, KEY_DIGEST_HEX)}`;
}

export function fingerprint(args: Record<string, unknown>): string {
  const { key: _key, ...rest } = args;
  return sha256Hex(canonicalJson(rest));
}
