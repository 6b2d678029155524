/**
 * One line of plain English per DurabilityEvent (src/durability/events.ts): what a pillar decided, with
 * the figures it decided on. Pure — the same event always reads the same — and without time or colour:
 * the caller puts the event's virtual time in its own column and paints the line by its tone (tone.ts).
 * The labs' traces use it, and so can the Runner's trace when a pillar acts there (breaker transitions,
 * backoff waits, DLQ writes): one wording for both.
 */
import { shortKey } from '../core/key.js';
import type { DurabilityEvent } from '../durability/events.js';
import { formatMs, type EventLine } from './tone.js';

export const plural = (n: number, word: string): string => `${n} ${n === 1 ? word : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`}`;
const rate = (r: number | null): string => (r === null ? '—' : r.toFixed(2));

export function describeDurabilityEvent(e: DurabilityEvent): EventLine {
  switch (e.type) {
    case 'idempotency.new':
      if (e.leaseExpired) {
        return {
          tone: 'warn',
          text: `idempotency: ${shortKey(e.key)} is New again — the placeholder from ${formatMs(e.leaseExpired.placeholderAtMs)} outlived its in-progress lease (ended ${formatMs(e.leaseExpired.expiredAtMs)}); this call takes the key over`,
        };
      }
      return { tone: 'plain', text: `idempotency: ${shortKey(e.key)} is New — placeholder stored (in progress)` };
    case 'idempotency.duplicate':
      return {
        tone: 'warn',
        text: `idempotency: ${shortKey(e.key)} is a Duplicate of the one recorded at ${formatMs(e.originalTimestampMs)} (window ends at ${formatMs(e.dedupWindowExpiresAtMs)})${e.inProgress ? '; the original is still in progress' : ''}`,
      };
    case 'idempotency.skipped':
      return {
        tone: 'warn',
        text:
          e.reason === 'key_too_long'
            ? `WARNING idempotency: key is ${e.keyBytes} bytes, over max_key_length ${e.maxKeyLength}: this operation is NOT deduplicated`
            : 'WARNING idempotency: disabled — this operation is NOT deduplicated',
      };
    case 'idempotency.recorded':
      return { tone: 'dim', text: `idempotency: result recorded for ${shortKey(e.key)}; duplicates get it until ${formatMs(e.dedupWindowExpiresAtMs)}` };
    case 'idempotency.released':
      return { tone: 'dim', text: `idempotency: ${shortKey(e.key)} released${e.removed ? ' (placeholder removed: the next attempt is New)' : ' (nothing to release)'}` };
    case 'idempotency.cleanup':
      return { tone: 'dim', text: `idempotency: lazy cleanup removed ${plural(e.removed, 'expired record')}` };
    case 'retry.attempt':
      if (e.ok) return { tone: 'good', text: `retry: ${e.operationType} attempt ${e.attempt}/${e.maxAttempts} succeeded` };
      return {
        tone: 'bad',
        text: `retry: ${e.operationType} attempt ${e.attempt}/${e.maxAttempts} failed: ${e.error?.code} (${e.errorClass === 'retryable' ? 'retryable' : 'not retryable'}; ${e.error?.definite ? 'definite: no effect' : 'indefinite: the effect may have happened'})`,
      };
    case 'retry.backoff':
      return { tone: 'plain', text: `backoff: wait ${e.delayMs} ms before attempt ${e.afterAttempt + 1} (capped ${e.cappedMs} ms, jitter ${e.strategy})` };
    case 'retry.fallback_policy':
      return { tone: 'warn', text: `retry: no policy for ${e.operationType}: the "*" fallback applies (1 attempt)` };
    case 'retry.gave_up':
      return e.reason === 'exhausted'
        ? { tone: 'bad', text: `retry: ${e.operationType} exhausted after ${plural(e.attempts, 'attempt')} → for the DLQ` }
        : { tone: 'bad', text: `retry: ${e.operationType} stopped after ${plural(e.attempts, 'attempt')}: not retryable, not for the DLQ` };
    case 'breaker.transition': {
      const why: Record<typeof e.reason, string> = {
        failure_rate: `failure rate ${rate(e.failureRate ?? null)} over ${plural(e.requestCount, 'result')}; refuses calls for ${e.resetTimeoutSeconds} s`,
        reset_timeout_elapsed: 'reset timeout elapsed: this call is the first probe',
        probes_succeeded: `${plural(e.requestCount, 'probe')} succeeded`,
        probe_failed: `a probe failed; refuses calls for ${e.resetTimeoutSeconds} s`,
        forced: 'forced closed by an operator',
      };
      return { tone: 'state', text: `breaker ${e.dependency}: ${e.from} → ${e.to} (${why[e.reason]})` };
    }
    case 'breaker.rejected':
      return {
        tone: 'bad',
        text: `  ↳ breaker ${e.dependency}: CircuitOpen — ${e.state === 'open' ? 'open' : 'half_open with every probe slot taken'}; refused, never reached ${e.dependency} (next chance in ${e.retryAfterMs} ms)`,
      };
    case 'breaker.probe_admitted':
      return { tone: 'plain', text: `  ↳ breaker ${e.dependency}: probe admitted (${e.inFlight} of ${e.slots} in flight)` };
    case 'breaker.probe_rearmed':
      return { tone: 'warn', text: `breaker ${e.dependency}: the probe started at ${formatMs(e.startedAtMs)} never reported — its slot is re-armed` };
    case 'breaker.result':
      return e.state === 'closed'
        ? { tone: 'dim', text: `  ↳ breaker ${e.dependency}: ${e.success ? 'success' : 'failure'} recorded; failure rate ${rate(e.failureRate)} over ${plural(e.windowLength, 'result')}` }
        : { tone: 'dim', text: `  ↳ breaker ${e.dependency}: probe reported ${e.success ? 'success' : 'failure'}` };
    case 'breaker.report_ignored':
      return e.reason === 'ticket_not_in_flight'
        ? { tone: 'warn', text: `breaker ${e.dependency}: late report (${e.success ? 'success' : 'failure'}) of ticket ${e.ticket ?? '?'} ignored — that call is no longer in flight (re-armed, already reported, or from before the breaker last closed)` }
        : { tone: 'warn', text: `breaker ${e.dependency}: report ignored — no probe in flight (${e.state})` };
    case 'checkpoint.saved': {
      const c = e.checkpoint;
      return { tone: 'good', text: `checkpoint: saved ${c.checkpointId} ${c.taskId}/${c.phase} (parent ${c.parentCheckpointId ?? 'none'}; expires at ${formatMs(c.expiresAtMs)})` };
    }
    case 'checkpoint.restored':
      return { tone: 'good', text: `checkpoint: restored ${e.checkpoint.checkpointId} ${e.checkpoint.taskId}/${e.checkpoint.phase}` };
    case 'checkpoint.evicted':
      return { tone: 'warn', text: `checkpoint: evicted ${e.checkpointId} (over max_checkpoints)` };
    case 'checkpoint.cleared':
      return { tone: 'dim', text: `checkpoint: cleared ${plural(e.removed, 'checkpoint')} of task ${e.taskId}${e.agentId === undefined ? '' : ` (agent ${e.agentId})`}` };
    case 'checkpoint.cleanup':
      return { tone: 'dim', text: `checkpoint: cleanup removed ${plural(e.removed, 'expired checkpoint')}` };
    case 'dlq.enqueued': {
      const r = e.record;
      // A Runner's dead letter keeps the whole state and scenario for its replay; the line shows the intent.
      const kept = r.originalOperation as { intent?: { action: string; args: Record<string, unknown> } } | null;
      const what = kept?.intent
        ? `intent ${kept.intent.action} ${JSON.stringify({ ...kept.intent.args, ...(typeof kept.intent.args.key === 'string' ? { key: shortKey(kept.intent.args.key) } : {}) })}`
        : `original operation ${JSON.stringify(r.originalOperation)}`;
      return {
        tone: 'warn',
        text: `DLQ: ${r.dlqId} pending — ${r.agentId} ${r.operationType}, ${plural(r.attempts, 'attempt')} (${plural(r.retryCount, 'retry')}), last error ${r.lastError.code}, expires at ${formatMs(r.expiresAtMs)}; ${what}`,
      };
    }
    case 'dlq.status':
      return { tone: 'state', text: `DLQ: ${e.dlqId} ${e.from} → ${e.to}` };
    case 'dlq.cleanup':
      return { tone: 'dim', text: `DLQ: cleanup removed ${plural(e.removed, 'expired record')}` };
  }
}
