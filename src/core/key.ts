/**
 * The one idempotency-key derivation of the project (docs/spec.md §3, docs/pillars.md §1):
 *
 *   `{owner}:{operation}:{first 32 lowercase hex chars of SHA-256(canonical JSON of the content)}`
 *
 * The runner's reserve key is `{task_id}:reserve:{hash of {item, qty}}` — the intent, not the attempt; the
 * pillars' key is `{agent_id}:{operation_type}:{hash of the content}`. Same shape, same function.
 * - content is hashed as canonical JSON (sorted keys), so `{a,b}` and `{b,a}` are one operation (ours:
 *   the seed's implementation hashed raw bytes and gave them two keys);
 * - `:` is refused inside the owner and the operation (ours: the seed let ("a:b","c") and ("a","b:c")
 *   produce the same prefix).
 * The short form a trace prints lives here too, with the key it shortens.
 */
import { brandOf, hasBrand, setBrand } from './brand.js';
import { canonicalJson, sha256Hex } from './canonical.js';

/** Hex characters of the content hash kept in a key (docs/spec.md §3: 32 hex = 128 bits). */
export const CONTENT_HASH_HEX_CHARS = 32;

/** Hex characters of the hash a trace shows: enough to tell two keys apart at a glance. */
export const SHORT_KEY_HEX_CHARS = 8;

/** Shared with the pillars' errors: a KeyPartError is a DurabilityError (code INVALID_KEY_PART). */
const DURABILITY_BRAND = brandOf('DurabilityError');
const KEY_PART_BRAND = brandOf('KeyPartError');

/** The owner (`agent_id`, the task id) or the operation would make an ambiguous key. */
export class KeyPartError extends Error {
  override readonly name = 'KeyPartError';
  readonly code = 'INVALID_KEY_PART';
  /** Nothing was sent: a key that cannot be made stops the operation before it starts. */
  readonly definite = true;
  readonly part: 'agent_id' | 'operation_type';
  readonly given: string;

  constructor(part: 'agent_id' | 'operation_type', given: string, why: string) {
    super(`${part} ${why}, got ${JSON.stringify(given)}`);
    this.part = part;
    this.given = given;
    setBrand(this, DURABILITY_BRAND);
    setBrand(this, KEY_PART_BRAND);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, KEY_PART_BRAND);
  }
}

export function contentHash(content: unknown): string {
  const json = canonicalJson(content);
  if (typeof json !== 'string') throw new TypeError('idempotency content must be a JSON value (got undefined or a function)');
  return sha256Hex(json).slice(0, CONTENT_HASH_HEX_CHARS);
}

function checkPart(part: 'agent_id' | 'operation_type', value: string): void {
  if (value === '') throw new KeyPartError(part, value, 'must not be empty');
  if (value.includes(':')) throw new KeyPartError(part, value, 'must not contain ":" (it separates the parts of the key)');
}

/** The key of one operation of one owner: the same operation always gets the same key. */
export function idempotencyKey(owner: string, operation: string, content: unknown): string {
  checkPart('agent_id', owner);
  checkPart('operation_type', operation);
  return `${owner}:${operation}:${contentHash(content)}`;
}

/** The length that `max_key_length` limits: UTF-8 bytes, not characters. */
export function keyByteLength(key: string): number {
  return Buffer.byteLength(key, 'utf8');
}

const KEY_SHAPE = new RegExp(`^(.*:[^:]+:)([0-9a-f]{${CONTENT_HASH_HEX_CHARS}})(.*)$`);

/** A key longer than this that is not of the derived shape is cut (a trace line must stay readable). */
const LONGEST_SHOWN_KEY = 60;

/** `task:reserve:2872d1b4…` — a key as a trace line shows it; a short key of another shape passes through. */
export function shortKey(key: unknown): string {
  if (typeof key !== 'string') return JSON.stringify(key) ?? String(key);
  const m = KEY_SHAPE.exec(key);
  if (m) return `${m[1]}${m[2]!.slice(0, SHORT_KEY_HEX_CHARS)}…${m[3]}`;
  return key.length > LONGEST_SHOWN_KEY ? `${key.slice(0, LONGEST_SHOWN_KEY - 3)}…` : key;
}
