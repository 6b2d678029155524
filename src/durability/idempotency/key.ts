import { canonicalJson, sha256Hex } from '../../sim/canonical.js';
import { KeyPartError } from '../errors.js';

/**
 * The tracking number: `{agent_id}:{operation_type}:{first 32 lowercase hex chars of SHA-256(content)}`.
 * The same operation always gets the same key, and two different operations never share one:
 * - content is hashed as canonical JSON (sorted keys), so `{a,b}` and `{b,a}` are one operation (ours:
 *   the original hashed raw bytes and gave them two keys);
 * - `:` is refused inside agent_id and operation_type (ours: the original let ("a:b","c") and ("a","b:c")
 *   produce the same prefix).
 */

/** Hex characters of the content hash kept in a key (128 bits). */
export const CONTENT_HASH_HEX_CHARS = 32;

export function contentHash(content: unknown): string {
  const json = canonicalJson(content);
  if (typeof json !== 'string') throw new TypeError('idempotency content must be a JSON value (got undefined or a function)');
  return sha256Hex(json).slice(0, CONTENT_HASH_HEX_CHARS);
}

function checkPart(part: 'agent_id' | 'operation_type', value: string): void {
  if (value === '') throw new KeyPartError(part, value, 'must not be empty');
  if (value.includes(':')) throw new KeyPartError(part, value, 'must not contain ":" (it separates the parts of the key)');
}

export function idempotencyKey(agentId: string, operationType: string, content: unknown): string {
  checkPart('agent_id', agentId);
  checkPart('operation_type', operationType);
  return `${agentId}:${operationType}:${contentHash(content)}`;
}

/** The length that `max_key_length` limits: UTF-8 bytes, not characters. */
export function keyByteLength(key: string): number {
  return Buffer.byteLength(key, 'utf8');
}
