import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { contentHash, idempotencyKey, keyByteLength } from '../../src/core/key.js';
import { isDurabilityError, KeyPartError } from '../../src/durability/errors.js';

describe('the tracking number: {agent_id}:{operation_type}:{32 hex of SHA-256(canonical JSON)}', () => {
  it('is the agent, the operation type and the first 32 lowercase hex chars of SHA-256 of the canonical content', () => {
    const key = idempotencyKey('agent-1', 'mcp_call', { tool: 'search', query: 'camera' });
    const expected = createHash('sha256').update('{"query":"camera","tool":"search"}').digest('hex').slice(0, 32);
    expect(key).toBe(`agent-1:mcp_call:${expected}`);
    expect(key).toMatch(/^agent-1:mcp_call:[0-9a-f]{32}$/);
  });

  it('gives {a,b} and {b,a} the same key: content is hashed as canonical JSON, not raw bytes (ours)', () => {
    const ab = idempotencyKey('agent-1', 'memory_write', { a: 1, b: [1, { y: 2, x: 1 }] });
    const ba = idempotencyKey('agent-1', 'memory_write', { b: [1, { x: 1, y: 2 }], a: 1 });
    expect(ab).toBe(ba);
    // what the original did: two byte strings, two keys
    expect(JSON.stringify({ a: 1, b: 2 })).not.toBe(JSON.stringify({ b: 2, a: 1 }));
  });

  it('gives different content different keys, and keeps array order significant', () => {
    expect(contentHash({ note: 'buy milk' })).not.toBe(contentHash({ note: 'buy bread' }));
    expect(contentHash([1, 2])).not.toBe(contentHash([2, 1]));
  });

  it('rejects ":" in agent_id, so ("a:b","c") and ("a","b:c") cannot collide (ours)', () => {
    expect(() => idempotencyKey('a:b', 'c', {})).toThrow(KeyPartError);
    try {
      idempotencyKey('a:b', 'c', {});
    } catch (error) {
      expect(isDurabilityError(error, 'INVALID_KEY_PART')).toBe(true);
      expect((error as KeyPartError).part).toBe('agent_id');
      expect((error as KeyPartError).given).toBe('a:b');
    }
  });

  it('rejects ":" in operation_type', () => {
    expect(() => idempotencyKey('a', 'b:c', {})).toThrow(/operation_type must not contain ":"/);
  });

  it('rejects an empty agent_id or operation_type', () => {
    expect(() => idempotencyKey('', 'mcp_call', {})).toThrow(/agent_id must not be empty/);
    expect(() => idempotencyKey('agent-1', '', {})).toThrow(/operation_type must not be empty/);
  });

  it('measures a key in UTF-8 bytes, not characters', () => {
    expect(keyByteLength('abc')).toBe(3);
    expect(keyByteLength('é')).toBe(2);
    expect(keyByteLength('包裹')).toBe(6);
  });
});
