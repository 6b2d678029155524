/**
 * The classic mistakes of the exercise, read from a run's trace — what the runner saved, what it put on the
 * wire, what it was told — so that a failing scenario is diagnosed as the mistake that made it fail, not only
 * as the invariant it broke. Each mistake says which checks it explains: a run that broke invariant 5 is
 * diagnosed as "a ContractError retried" even if the same run also shows an earlier, harmless slip.
 *
 * The trace is the grader's own record (the learner's process never writes it), so a diagnosis cannot be forged.
 */
import { sameJson } from '../core/canonical.js';
import { shortKey } from '../core/key.js';
import { formatAction } from '../render/format.js';
import { t, type MessageKey } from '../core/i18n/index.js';
import type { Run } from '../sim/Run.js';
import { isTerminal, type RunnerState, type ToolAction } from '../runner/state.js';

export const MISTAKE_IDS = [
  'crash_caught',
  'new_key_per_attempt',
  'args_changed_on_retry',
  'contract_error_retried',
  'budget_checked_late',
  'saved_late',
  'pending_dropped',
  'lost_reply_as_failure',
] as const;

export type MistakeId = (typeof MISTAKE_IDS)[number];

/** Per mistake: its name (a catalogue key), and the checks it can make fail (an invariant, or letting a crash through). */
export const MISTAKES: Record<MistakeId, { title: MessageKey; explains: readonly string[] }> = {
  crash_caught: { title: 'grade.mistake.crashCaught.title', explains: ['crash_caught'] },
  new_key_per_attempt: { title: 'grade.mistake.newKeyPerAttempt.title', explains: ['inv3_same_key_same_args', 'inv1_one_effect_per_intent', 'inv6_success_has_receipt'] },
  args_changed_on_retry: { title: 'grade.mistake.argsChangedOnRetry.title', explains: ['inv3_same_key_same_args', 'inv5_contract_error_changes_nothing', 'inv1_one_effect_per_intent'] },
  contract_error_retried: { title: 'grade.mistake.contractErrorRetried.title', explains: ['inv5_contract_error_changes_nothing', 'inv2_call_budget'] },
  budget_checked_late: { title: 'grade.mistake.budgetCheckedLate.title', explains: ['inv2_call_budget'] },
  saved_late: {
    title: 'grade.mistake.savedLate.title',
    explains: ['inv3_same_key_same_args', 'inv2_call_budget', 'inv1_one_effect_per_intent', 'inv4_log_rebuilds_state', 'inv6_success_has_receipt'],
  },
  pending_dropped: { title: 'grade.mistake.pendingDropped.title', explains: ['inv6_success_has_receipt', 'inv1_one_effect_per_intent'] },
  lost_reply_as_failure: { title: 'grade.mistake.lostReplyAsFailure.title', explains: [] },
};

export interface Mistake {
  id: MistakeId;
  title: string;
  /** What exactly happened, where, and why it breaks the rule. */
  message: string;
  /** Its place in the trace: the earliest mistake is the first thing that went wrong. */
  at: number;
}

const describeSaved = (seq: number | null, label: string | null) => (seq === null ? t('grade.mistake.nothingSaved') : `#${seq} ${label}`);

/** Every mistake the trace shows, each at its first occurrence, in trace order. */
export function findMistakes(run: Run): Mistake[] {
  const found = new Map<MistakeId, Mistake>();
  const note = (id: MistakeId, at: number, message: string, title = t(MISTAKES[id].title)) => {
    if (!found.has(id)) found.set(id, { id, title, message, at });
  };
  const max = run.scenario.task.max_calls;
  let persisted: RunnerState | null = null;
  let persistedAt: { seq: number | null; label: string | null } = { seq: null, label: null };
  const firstSent = new Map<number, { action: ToolAction; call: number | undefined }>();
  let lastSent: ToolAction | null = null;
  let refused: { action: ToolAction; code: string } | null = null;
  let transient: { definite: boolean; tool: string; attempt: number } | null = null;
  let requests = 0;

  run.trace.forEach((event, at) => {
    switch (event.type) {
      case 'saved': {
        if (transient !== null) afterTransient(event.state, event.label, at);
        persisted = event.state;
        persistedAt = { seq: event.seq, label: event.label };
        break;
      }
      case 'recovered':
        persisted = event.state;
        persistedAt = { seq: event.seq, label: 'recovered' };
        transient = null;
        break;
      case 'crash_caught':
        note('crash_caught', at, t('grade.mistake.crashCaught', { how: event.how }));
        break;
      case 'request': {
        if (event.by !== 'runner' || event.delivery !== undefined) break;
        requests += 1;
        const action = event.action;
        lastSent = action;
        const call = event.call ?? requests;
        const what = event.attempt !== undefined ? t('grade.mistake.callAttempt', { call, name: action.name, attempt: event.attempt }) : t('grade.mistake.call', { call, name: action.name });
        if (requests > max) {
          note('budget_checked_late', at, t('grade.mistake.budgetCheckedLate', { what, requests, max }));
        }
        const saved = persisted as RunnerState | null;
        if (saved === null || saved.pending === null) {
          note('saved_late', at, t('grade.mistake.savedLate.nothingPending', { what, saved: describeSaved(persistedAt.seq, persistedAt.label) }));
        } else if (!sameJson(saved.pending, action)) {
          differs(at, what, t('grade.mistake.whose.saved'), saved.pending, action);
        } else if (event.call !== undefined && event.attempt !== undefined && (saved.calls !== event.call || saved.attempts !== event.attempt)) {
          note('saved_late', at, t('grade.mistake.savedLate.notCounted', { what, saved: describeSaved(persistedAt.seq, persistedAt.label), calls: saved.calls, attempts: saved.attempts }));
        }
        const decision = saved?.decisions ?? 0;
        const first = firstSent.get(decision);
        if (first === undefined) firstSent.set(decision, { action, call: event.call });
        else if (!sameJson(first.action, action) && first.action.name === action.name) {
          differs(at, what, t('grade.mistake.whose.first', { call: first.call ?? '?' }), first.action, action);
        }
        if (refused !== null && sameJson(refused.action, action)) {
          note('contract_error_retried', at, t('grade.mistake.contractErrorRetried', { what, code: refused.code }));
        }
        break;
      }
      case 'reply': {
        if (event.by !== 'runner' || !event.delivered || event.outcome.ok) break;
        const error = event.outcome.error;
        if (error.class === 'ContractError' && lastSent !== null) refused = { action: lastSent, code: error.code ?? t('grade.mistake.aRefusal') };
        if (error.class === 'TransientError') transient = { definite: error.certainty === 'definite', tool: event.tool, attempt: (persisted as RunnerState | null)?.attempts ?? 0 };
        break;
      }
    }
  });
  return [...found.values()].sort((a, b) => a.at - b.at);

  /** Two versions of one pending action, `before` as `whose` had it: the key alone changed, or the args. */
  function differs(at: number, what: string, whose: string, before: ToolAction, after: ToolAction): void {
    const { key: k1, ...rest1 } = before.args;
    const { key: k2, ...rest2 } = after.args;
    if (k1 !== k2 && sameJson(rest1, rest2)) {
      note('new_key_per_attempt', at, t('grade.mistake.newKeyPerAttempt', { what, key: shortKey(k2), whose, before: shortKey(k1) }));
    } else {
      note('args_changed_on_retry', at, t('grade.mistake.argsChangedOnRetry', { what, action: formatAction(after), whose, before: formatAction(before) }));
    }
  }

  /** The first save after a TransientError: the action must stay pending, and the run go on (or end retry_exhausted). */
  function afterTransient(state: RunnerState, label: string, at: number): void {
    const failure = transient!;
    transient = null;
    const told = t(failure.definite ? 'grade.mistake.told.definite' : 'grade.mistake.told.indefinite', { tool: failure.tool });
    const title = t(failure.definite ? 'grade.mistake.transientAsFailure.title' : MISTAKES.lost_reply_as_failure.title);
    if (isTerminal(state.status) && state.status !== 'retry_exhausted') {
      note('lost_reply_as_failure', at, t('grade.mistake.endedRun', { told, status: state.status }), title);
    } else if (state.status === 'retry_exhausted' && state.attempts <= state.task.max_retries) {
      const left = state.task.max_retries + 1 - state.attempts;
      note('lost_reply_as_failure', at, t('grade.mistake.gaveUpEarly', { told, attempts: state.attempts, left, max: state.task.max_retries }), title);
    } else if (state.pending === null && label !== 'observed') {
      note('pending_dropped', at, t(failure.definite ? 'grade.mistake.pendingDropped.definite' : 'grade.mistake.pendingDropped.indefinite', { told, label }));
    }
  }
}

/**
 * The mistake that explains a failed run: among those it shows, the earliest that explains one of the checks
 * that failed; when only figures failed, the earliest of all. Null when the trace shows none.
 */
export function explainingMistake(run: Run, failedChecks: readonly string[]): Mistake | null {
  const mistakes = findMistakes(run);
  const breaking = failedChecks.filter((id) => id === 'crash_caught' || id.startsWith('inv'));
  if (breaking.length === 0) return mistakes[0] ?? null;
  return mistakes.find((m) => MISTAKES[m.id].explains.some((id) => breaking.includes(id))) ?? null;
}
