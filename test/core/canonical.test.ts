/** Canonical JSON is what keys and fingerprints hash; sameJson must agree with it. */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalRoundTrip, jsonCopy, sameJson } from '../../src/core/canonical.js';

describe('canonical JSON', () => {
  it('sorts keys and drops white space', () => {
    expect(canonicalJson({ qty: 1, item: 'camera', nested: { b: [2, { d: 1, c: 0 }], a: null } })).toBe('{"item":"camera","nested":{"a":null,"b":[2,{"c":0,"d":1}]},"qty":1}');
  });

  it('gives one text for two orders of the same object', () => {
    expect(canonicalJson({ item: 'camera', qty: 1 })).toBe(canonicalJson({ qty: 1, item: 'camera' }));
  });
});

describe('sameJson', () => {
  it('agrees with comparing canonical JSON, for any two JSON values', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(json, json, (a, b) => sameJson(a, b) === (canonicalJson(a) === canonicalJson(b))),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(json, (a) => sameJson(a, JSON.parse(JSON.stringify(a)))));
  });

  it('ignores key order and undefined members, as JSON does', () => {
    expect(sameJson({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(sameJson({ a: 1, z: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJson([1, 2], { 0: 1, 1: 2 })).toBe(false);
  });
});

/** The definitions the fast paths must agree with, byte for byte and value for value. */
function sortKeysDefinition(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDefinition);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeysDefinition(v);
    }
    return out;
  }
  return value;
}

function outcome(work: () => unknown): { value: unknown } | { error: string } {
  try {
    return { value: work() };
  } catch (error) {
    return { error: String(error) };
  }
}

const anything = fc.anything({
  maxDepth: 4,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
  key: fc.oneof(fc.string(), fc.constantFrom('__proto__', 'toJSON', '0', '10', '9', '-1', '1a')),
});

describe('the direct writer and copier', () => {
  it('write exactly the canonical JSON of the definition, for any value (odd ones included)', () => {
    fc.assert(
      fc.property(anything, (value) => {
        expect(outcome(() => canonicalJson(value))).toEqual(outcome(() => JSON.stringify(sortKeysDefinition(value))));
      }),
      { numRuns: 3000 },
    );
  });

  it('hand back, with the canonical JSON, exactly what parsing it gives', () => {
    fc.assert(
      fc.property(anything, (value) => {
        const definition = outcome(() => JSON.stringify(sortKeysDefinition(value)) as string | undefined);
        const fast = outcome(() => canonicalRoundTrip(value));
        if ('error' in definition || 'error' in fast) {
          expect(fast).toEqual(definition);
          return;
        }
        const { json, copy } = fast.value as ReturnType<typeof canonicalRoundTrip>;
        expect(json).toBe(definition.value);
        const parsed = definition.value === undefined ? undefined : (JSON.parse(definition.value as string) as unknown);
        expect(isDeepStrictEqual(copy, parsed)).toBe(true);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(parsed));
      }),
      { numRuns: 3000 },
    );
  });

  it('copy exactly what a JSON round trip gives, key order and prototypes included', () => {
    fc.assert(
      fc.property(anything, (value) => {
        const fast = outcome(() => jsonCopy(value));
        const slow = outcome(() => JSON.parse(JSON.stringify(value)) as unknown);
        expect('error' in fast ? fast.error : undefined).toBe('error' in slow ? slow.error : undefined);
        if ('value' in fast && 'value' in slow) {
          expect(isDeepStrictEqual(fast.value, slow.value)).toBe(true);
          expect(JSON.stringify(fast.value)).toBe(JSON.stringify(slow.value));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('turn -0 into 0, NaN into null, and drop undefined members, as JSON does', () => {
    expect(Object.is(jsonCopy({ n: -0 }).n, 0)).toBe(true);
    expect(jsonCopy([Number.NaN, undefined, () => 1])).toEqual([null, null, null]);
    expect(Object.keys(jsonCopy({ a: 1, b: undefined }))).toEqual(['a']);
    expect(canonicalJson({ b: [undefined], a: Number.POSITIVE_INFINITY, c: undefined })).toBe('{"a":null,"b":[null]}');
  });

  it('report a cycle as the JSON round trip does', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => jsonCopy(cyclic)).toThrow(/circular/);
  });
});
