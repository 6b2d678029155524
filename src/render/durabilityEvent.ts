/**
 * One line of plain words per DurabilityEvent (src/durability/events.ts): what a pillar decided, with
 * the figures it decided on. Pure — the same event always reads the same — and without time or colour:
 * the caller puts the event's virtual time in its own column and paints the line by its tone (tone.ts).
 * The labs' traces use it, and so can the Runner's trace when a pillar acts there (breaker transitions,
 * backoff waits, DLQ writes): one wording for both.
 */
import { shortKey } from '../core/key.js';
import type { DurabilityEvent } from '../durability/events.js';
import { formatMs, type EventLine } from './tone.js';
import { t, tn, type Lang } from './words/index.js';

const rate = (r: number | null): string => (r === null ? '—' : r.toFixed(2));
const ms = formatMs;

export function describeDurabilityEvent(lang: Lang, e: DurabilityEvent): EventLine {
  switch (e.type) {
    case 'idempotency.new':
      if (e.leaseExpired) {
        return { tone: 'warn', text: t(lang, 'pillar.idem.newAgain', { key: shortKey(e.key), placeholderAt: ms(e.leaseExpired.placeholderAtMs), expiredAt: ms(e.leaseExpired.expiredAtMs) }) };
      }
      return { tone: 'plain', text: t(lang, 'pillar.idem.new', { key: shortKey(e.key) }) };
    case 'idempotency.duplicate': {
      const params = { key: shortKey(e.key), at: ms(e.originalTimestampMs), ends: ms(e.dedupWindowExpiresAtMs) };
      return { tone: 'warn', text: t(lang, e.inProgress ? 'pillar.idem.duplicateInProgress' : 'pillar.idem.duplicate', params) };
    }
    case 'idempotency.skipped':
      return {
        tone: 'warn',
        text: e.reason === 'key_too_long' ? t(lang, 'pillar.idem.keyTooLong', { bytes: e.keyBytes, max: e.maxKeyLength }) : t(lang, 'pillar.idem.disabled'),
      };
    case 'idempotency.recorded':
      return { tone: 'dim', text: t(lang, 'pillar.idem.recorded', { key: shortKey(e.key), until: ms(e.dedupWindowExpiresAtMs) }) };
    case 'idempotency.released':
      return { tone: 'dim', text: t(lang, e.removed ? 'pillar.idem.released' : 'pillar.idem.releasedNothing', { key: shortKey(e.key) }) };
    case 'idempotency.cleanup':
      return { tone: 'dim', text: t(lang, 'pillar.idem.cleanup', { records: tn(lang, 'pillar.n.expiredRecord', e.removed) }) };
    case 'retry.attempt': {
      const params = { op: e.operationType, attempt: e.attempt, max: e.maxAttempts };
      if (e.ok) return { tone: 'ok', text: t(lang, 'pillar.retry.succeeded', params) };
      const retryable = t(lang, e.errorClass === 'retryable' ? 'pillar.retry.retryable' : 'pillar.retry.notRetryable');
      const certainty = t(lang, e.error?.definite ? 'pillar.retry.definite' : 'pillar.retry.indefinite');
      return { tone: 'bad', text: t(lang, 'pillar.retry.failed', { ...params, code: String(e.error?.code), retryable, certainty }) };
    }
    case 'retry.backoff':
      return { tone: 'plain', text: t(lang, 'pillar.retry.backoff', { delay: e.delayMs, next: e.afterAttempt + 1, capped: e.cappedMs, strategy: e.strategy }) };
    case 'retry.fallback_policy':
      return { tone: 'warn', text: t(lang, 'pillar.retry.fallback', { op: e.operationType }) };
    case 'retry.gave_up':
      return e.reason === 'exhausted'
        ? { tone: 'bad', text: t(lang, 'pillar.retry.exhausted', { op: e.operationType, attempts: tn(lang, 'pillar.n.attempt', e.attempts) }) }
        : { tone: 'bad', text: t(lang, 'pillar.retry.stopped', { op: e.operationType, attempts: tn(lang, 'pillar.n.attempt', e.attempts) }) };
    case 'breaker.transition': {
      const why = (): string => {
        switch (e.reason) {
          case 'failure_rate':
            return t(lang, 'pillar.breaker.why.failureRate', { rate: rate(e.failureRate ?? null), results: tn(lang, 'pillar.n.result', e.requestCount), seconds: String(e.resetTimeoutSeconds) });
          case 'reset_timeout_elapsed':
            return t(lang, 'pillar.breaker.why.resetTimeout');
          case 'probes_succeeded':
            return t(lang, 'pillar.breaker.why.probesSucceeded', { probes: tn(lang, 'pillar.n.probe', e.requestCount) });
          case 'probe_failed':
            return t(lang, 'pillar.breaker.why.probeFailed', { seconds: String(e.resetTimeoutSeconds) });
          case 'forced':
            return t(lang, 'pillar.breaker.why.forced');
        }
      };
      return { tone: 'fault', text: t(lang, 'pillar.breaker.transition', { dependency: e.dependency, from: e.from, to: e.to, why: why() }) };
    }
    case 'breaker.rejected':
      return {
        tone: 'bad',
        text: `  ${t(lang, e.state === 'open' ? 'pillar.breaker.rejectedOpen' : 'pillar.breaker.rejectedHalfOpen', { dependency: e.dependency, retryAfter: e.retryAfterMs })}`,
      };
    case 'breaker.probe_admitted':
      return { tone: 'plain', text: `  ${t(lang, 'pillar.breaker.probeAdmitted', { dependency: e.dependency, inFlight: e.inFlight, slots: e.slots })}` };
    case 'breaker.probe_rearmed':
      return { tone: 'warn', text: t(lang, 'pillar.breaker.probeRearmed', { dependency: e.dependency, startedAt: ms(e.startedAtMs) }) };
    case 'breaker.result': {
      const outcome = t(lang, e.success ? 'pillar.breaker.success' : 'pillar.breaker.failure');
      return e.state === 'closed'
        ? { tone: 'dim', text: `  ${t(lang, 'pillar.breaker.resultRecorded', { dependency: e.dependency, outcome, rate: rate(e.failureRate), results: tn(lang, 'pillar.n.result', e.windowLength) })}` }
        : { tone: 'dim', text: `  ${t(lang, 'pillar.breaker.probeReported', { dependency: e.dependency, outcome })}` };
    }
    case 'breaker.report_ignored': {
      const outcome = t(lang, e.success ? 'pillar.breaker.success' : 'pillar.breaker.failure');
      return e.reason === 'ticket_not_in_flight'
        ? { tone: 'warn', text: t(lang, 'pillar.breaker.lateReport', { dependency: e.dependency, outcome, ticket: e.ticket ?? '?' }) }
        : { tone: 'warn', text: t(lang, 'pillar.breaker.reportIgnored', { dependency: e.dependency, state: e.state }) };
    }
    case 'checkpoint.saved': {
      const c = e.checkpoint;
      return { tone: 'ok', text: t(lang, 'pillar.checkpoint.saved', { id: c.checkpointId, task: c.taskId, phase: c.phase, parent: c.parentCheckpointId ?? t(lang, 'pillar.checkpoint.noParent'), expires: ms(c.expiresAtMs) }) };
    }
    case 'checkpoint.restored':
      return { tone: 'ok', text: t(lang, 'pillar.checkpoint.restored', { id: e.checkpoint.checkpointId, task: e.checkpoint.taskId, phase: e.checkpoint.phase }) };
    case 'checkpoint.evicted':
      return { tone: 'warn', text: t(lang, 'pillar.checkpoint.evicted', { id: e.checkpointId }) };
    case 'checkpoint.cleared': {
      const params = { checkpoints: tn(lang, 'pillar.n.checkpoint', e.removed), task: e.taskId };
      return { tone: 'dim', text: e.agentId === undefined ? t(lang, 'pillar.checkpoint.cleared', params) : t(lang, 'pillar.checkpoint.clearedAgent', { ...params, agent: e.agentId }) };
    }
    case 'checkpoint.cleanup':
      return { tone: 'dim', text: t(lang, 'pillar.checkpoint.cleanup', { checkpoints: tn(lang, 'pillar.n.expiredCheckpoint', e.removed) }) };
    case 'dlq.enqueued': {
      const r = e.record;
      // A Runner's dead letter keeps the whole state and scenario for its replay; the line shows the intent.
      const kept = r.originalOperation as { intent?: { action: string; args: Record<string, unknown> } } | null;
      const what = kept?.intent
        ? t(lang, 'pillar.dlq.intent', { action: kept.intent.action, args: JSON.stringify({ ...kept.intent.args, ...(typeof kept.intent.args.key === 'string' ? { key: shortKey(kept.intent.args.key) } : {}) }) })
        : t(lang, 'pillar.dlq.operation', { operation: JSON.stringify(r.originalOperation) });
      return {
        tone: 'warn',
        text: t(lang, 'pillar.dlq.enqueued', {
          id: r.dlqId,
          agent: r.agentId,
          op: r.operationType,
          attempts: tn(lang, 'pillar.n.attempt', r.attempts),
          retries: tn(lang, 'pillar.n.retry', r.retryCount),
          code: r.lastError.code,
          expires: ms(r.expiresAtMs),
          what,
        }),
      };
    }
    case 'dlq.status':
      return { tone: 'fault', text: t(lang, 'pillar.dlq.status', { id: e.dlqId, from: e.from, to: e.to }) };
    case 'dlq.cleanup':
      return { tone: 'dim', text: t(lang, 'pillar.dlq.cleanup', { records: tn(lang, 'pillar.n.expiredRecord', e.removed) }) };
  }
}
