/** Canonical JSON is what keys and fingerprints hash; sameJson must agree with it. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sameJson } from '../../src/core/canonical.js';

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
