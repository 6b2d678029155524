import { describe, expect, it } from 'vitest';
import type { DurabilityEvent } from '../../src/durability/events.js';
import { describeDurabilityEvent } from '../../src/render/durabilityEvent.js';
import { colorStyle, PLAIN } from '../../src/render/style.js';
import { paint } from '../../src/render/tone.js';

/**
 * The one wording of what a pillar decided, for every trace that shows one (a lab's, and the Runner's
 * when a pillar acts there). Pure: no time (the trace's column has it), no colour (the tone says which).
 */

const KEY = 'agent-7:wiki_write:0123456789abcdef0123456789abcdef';

describe('describeDurabilityEvent', () => {
  it('says a breaker transition with the figures it rests on', () => {
    const e: DurabilityEvent = { type: 'breaker.transition', dependency: 'memory_service', from: 'closed', to: 'open', failureRate: 0.6, requestCount: 10, resetTimeoutSeconds: 30, reason: 'failure_rate', atMs: 900 };
    expect(describeDurabilityEvent('en', e)).toEqual({ tone: 'fault', text: 'breaker memory_service: closed → open (failure rate 0.60 over 10 results; refuses calls for 30 s)' });
  });

  it('says a backoff wait with its cap and strategy', () => {
    const e: DurabilityEvent = { type: 'retry.backoff', operationType: 'mcp_call', afterAttempt: 1, delayMs: 644, cappedMs: 500, strategy: 'additive30', atMs: 0 };
    expect(describeDurabilityEvent('en', e)).toEqual({ tone: 'plain', text: 'backoff: wait 644 ms before attempt 2 (capped 500 ms, jitter additive30)' });
  });

  it('says a DLQ write whole: who, how many attempts and retries, the last error, when it expires, the operation', () => {
    const e: DurabilityEvent = {
      type: 'dlq.enqueued',
      atMs: 2000,
      record: {
        dlqId: 'dlq-000001',
        agentId: 'agent-7',
        operationType: 'wiki_write',
        originalOperation: { key: KEY },
        attempts: 3,
        retryCount: 2,
        lastError: { code: 'SERVICE_UNAVAILABLE', message: 'down', definite: true },
        failedAtMs: 2000,
        expiresAtMs: 86_402_000,
        status: 'pending',
      },
    };
    expect(describeDurabilityEvent('en', e).text).toBe(
      `DLQ: dlq-000001 pending — agent-7 wiki_write, 3 attempts (2 retries), last error SERVICE_UNAVAILABLE, expires at 86402000ms; original operation {"key":"${KEY}"}`,
    );
  });

  it('shortens keys and says whether a failure was definite', () => {
    expect(describeDurabilityEvent('en', { type: 'idempotency.new', key: KEY, atMs: 0 }).text).toBe('idempotency: agent-7:wiki_write:01234567… is New — placeholder stored (in progress)');
    const lost: DurabilityEvent = { type: 'retry.attempt', operationType: 'wiki_write', attempt: 1, maxAttempts: 3, ok: false, error: { code: 'NETWORK_TIMEOUT', message: 'lost', definite: false }, errorClass: 'retryable', atMs: 0 };
    expect(describeDurabilityEvent('en', lost).text).toBe('retry: wiki_write attempt 1/3 failed: NETWORK_TIMEOUT (retryable; indefinite: the effect may have happened)');
  });

  it('reads the same for the same event, whatever the time it happened at', () => {
    const at = (atMs: number): DurabilityEvent => ({ type: 'dlq.status', dlqId: 'dlq-000001', from: 'pending', to: 'replayed', atMs });
    expect(describeDurabilityEvent('en', at(5))).toEqual(describeDurabilityEvent('en', at(99_000)));
  });
});

describe('paint', () => {
  it('adds colour only through a coloured Style', async () => {
    expect(paint(PLAIN, 'bad', 'refused')).toBe('refused');
    expect(paint(await colorStyle(1), 'bad', 'refused')).toMatch(/\u001b\[31mrefused/);
  });
});
