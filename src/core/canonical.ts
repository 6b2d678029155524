import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted, no insignificant white space. Two values that mean the same thing
 * serialise to the same bytes, which is what a key or a fingerprint must hash.
 *
 * The definition is `JSON.stringify(sortKeys(value))`. Plain data — what every saved state, action and
 * reply is — takes a faster road to the same bytes: a copy built with its keys already in sorted order
 * (plainCopy), which JSON.stringify then writes in that order. Whatever plainCopy is not sure of goes by
 * the definition.
 */
export function canonicalJson(value: unknown): string {
  const copy = plainCopy(value, true, 0);
  return copy === NOT_PLAIN ? JSON.stringify(sortKeys(value)) : JSON.stringify(copy);
}

/**
 * The canonical JSON of a value, and the value as it reads back from that JSON (`JSON.parse(json)`: a deep
 * copy, keys sorted) — what the event store writes and what it hands on, without parsing what it just wrote.
 */
export function canonicalRoundTrip(value: unknown): { json: string; copy: unknown } {
  const copy = plainCopy(value, true, 0);
  if (copy !== NOT_PLAIN) return { json: JSON.stringify(copy), copy };
  const json = JSON.stringify(sortKeys(value)) as string | undefined;
  return { json: json as string, copy: json === undefined ? undefined : (JSON.parse(json) as unknown) };
}

/** The definition of canonical JSON's order: every object rebuilt with its keys sorted. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/**
 * SHA-256 of a text, in hex. Remembered for the texts hashed most (an exploration makes the same key and
 * fingerprint in every one of its runs): a hash is a pure function of its text, so a remembered one is the
 * same hash. Bounded, so a long-lived process does not grow without end.
 */
export function sha256Hex(text: string): string {
  if (text.length > LONGEST_KEPT) return createHash('sha256').update(text, 'utf8').digest('hex');
  let hex = hashes.get(text);
  if (hex === undefined) {
    if (hashes.size >= HASHES_KEPT) hashes.clear();
    hex = createHash('sha256').update(text, 'utf8').digest('hex');
    hashes.set(text, hex);
  }
  return hex;
}

/** At most this many texts of at most this length (a key's or a fingerprint's content is ~50 characters). */
const HASHES_KEPT = 4096;
const LONGEST_KEPT = 512;
const hashes = new Map<string, string>();

/**
 * A deep copy through JSON: what a value looks like after a round trip through the database or the wire —
 * `JSON.parse(JSON.stringify(value))`. Plain data is copied directly, with the same result; anything else
 * takes the round trip itself.
 */
export function jsonCopy<T>(value: T): T {
  const copy = plainCopy(value, false, 0);
  return (copy === NOT_PLAIN ? JSON.parse(JSON.stringify(value)) : copy) as T;
}

const NOT_PLAIN = Symbol('not plain JSON');

/** Deeper than any state: past this, the definitions take over (and report a cycle as they always did). */
const MAX_DEPTH = 64;

/**
 * What the JSON round trip of `value` gives (its keys in sorted order if asked), or NOT_PLAIN wherever the
 * round trip or canonical JSON would do something this copy does not: an object that is not a plain object
 * or array (a Date, a Map, a class), a key JSON treats specially or orders first (`toJSON`, `__proto__`, an
 * array index), a bigint, a top-level value JSON cannot write.
 */
function plainCopy(value: unknown, sorted: boolean, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : null; // JSON writes -0 as 0, and NaN or Infinity as null
    case 'object': {
      if (value === null) return null;
      if (depth > MAX_DEPTH) return NOT_PLAIN;
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto === Array.prototype) {
        const array = value as unknown[];
        const out = new Array<unknown>(array.length);
        for (let i = 0; i < array.length; i += 1) {
          const item = array[i];
          const copy = item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : plainCopy(item, sorted, depth + 1);
          if (copy === NOT_PLAIN) return NOT_PLAIN;
          out[i] = copy;
        }
        return out;
      }
      if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
      const keys = Object.keys(value);
      if (sorted) keys.sort();
      const out: Record<string, unknown> = {};
      for (const key of keys) {
        if (!plainKey(key)) return NOT_PLAIN;
        const item = (value as Record<string, unknown>)[key];
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
        const copy = plainCopy(item, sorted, depth + 1);
        if (copy === NOT_PLAIN) return NOT_PLAIN;
        out[key] = copy;
      }
      return out;
    }
    default:
      return NOT_PLAIN;
  }
}

/** Not a key JSON orders before the others (an array index) or treats specially. */
function plainKey(key: string): boolean {
  const first = key.charCodeAt(0);
  return !(first >= 48 && first <= 57) && key !== '__proto__' && key !== 'toJSON';
}

/**
 * Whether two JSON values are equal as canonical JSON would say (key order ignored, undefined members
 * absent), without serialising either: the checks compare many states and actions.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => sameJson(item, other[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x).filter((k) => x[k] !== undefined);
  if (keys.length !== Object.keys(y).filter((k) => y[k] !== undefined).length) return false;
  return keys.every((k) => Object.hasOwn(y, k) && sameJson(x[k], y[k]));
}
