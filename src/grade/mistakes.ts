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

/** Per mistake: its name, and the checks it can make fail (an invariant, or letting a crash through). */
export const MISTAKES: Record<MistakeId, { title: string; explains: readonly string[] }> = {
  crash_caught: { title: 'a crash caught by the step', explains: ['crash_caught'] },
  new_key_per_attempt: { title: 'a new key on a retry', explains: ['inv3_same_key_same_args', 'inv1_one_effect_per_intent', 'inv6_success_has_receipt'] },
  args_changed_on_retry: { title: 'args changed on a retry', explains: ['inv3_same_key_same_args', 'inv5_contract_error_changes_nothing', 'inv1_one_effect_per_intent'] },
  contract_error_retried: { title: 'a ContractError retried', explains: ['inv5_contract_error_changes_nothing', 'inv2_call_budget'] },
  budget_checked_late: { title: 'the budget checked late, or never', explains: ['inv2_call_budget'] },
  saved_late: {
    title: 'an attempt sent before it was saved',
    explains: ['inv3_same_key_same_args', 'inv2_call_budget', 'inv1_one_effect_per_intent', 'inv4_log_rebuilds_state', 'inv6_success_has_receipt'],
  },
  pending_dropped: { title: 'pending dropped after a TransientError', explains: ['inv6_success_has_receipt', 'inv1_one_effect_per_intent'] },
  lost_reply_as_failure: { title: 'a lost reply treated as a failure', explains: [] },
};

export interface Mistake {
  id: MistakeId;
  title: string;
  /** What exactly happened, where, and why it breaks the rule. */
  message: string;
  /** Its place in the trace: the earliest mistake is the first thing that went wrong. */
  at: number;
}

const describeSaved = (seq: number | null, label: string | null) => (seq === null ? 'nothing saved yet' : `#${seq} ${label}`);

/** Every mistake the trace shows, each at its first occurrence, in trace order. */
export function findMistakes(run: Run): Mistake[] {
  const found = new Map<MistakeId, Mistake>();
  const note = (id: MistakeId, at: number, message: string, title = MISTAKES[id].title) => {
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
        note('crash_caught', at, `the step went on after the simulated crash (${event.how}): a crash ends the process, and only TransientError and ContractError are the step's to handle`);
        break;
      case 'request': {
        if (event.by !== 'runner' || event.delivery !== undefined) break;
        requests += 1;
        const action = event.action;
        lastSent = action;
        const what = `call ${event.call ?? requests} (${action.name}${event.attempt !== undefined ? ` attempt ${event.attempt}` : ''})`;
        if (requests > max) {
          note('budget_checked_late', at, `${what} was request ${requests} on the wire with max_calls ${max}: the budget must be checked before every attempt — a retry of an action already pending included`);
        }
        const saved = persisted as RunnerState | null;
        if (saved === null || saved.pending === null) {
          note('saved_late', at, `${what} left while the last saved event (${describeSaved(persistedAt.seq, persistedAt.label)}) has nothing pending: save prepared — the action with its key — before the request leaves, or a crash in flight loses the intent`);
        } else if (!sameJson(saved.pending, action)) {
          differs(at, what, 'the saved pending action', saved.pending, action);
        } else if (event.call !== undefined && event.attempt !== undefined && (saved.calls !== event.call || saved.attempts !== event.attempt)) {
          note(
            'saved_late',
            at,
            `${what} left while the last saved event (${describeSaved(persistedAt.seq, persistedAt.label)}) still says calls ${saved.calls}, attempt ${saved.attempts}: save attempt_started with the call counted before the request leaves — after a crash in flight the new runner would not know this attempt was made`,
          );
        }
        const decision = saved?.decisions ?? 0;
        const first = firstSent.get(decision);
        if (first === undefined) firstSent.set(decision, { action, call: event.call });
        else if (!sameJson(first.action, action) && first.action.name === action.name) {
          differs(at, what, `its first attempt (call ${first.call ?? '?'})`, first.action, action);
        }
        if (refused !== null && sameJson(refused.action, action)) {
          note('contract_error_retried', at, `${what} sent again the very request the tool refused with ContractError ${refused.code}: a refusal is definite — the same request gets the same answer, and each retry only burns the budget`);
        }
        break;
      }
      case 'reply': {
        if (event.by !== 'runner' || !event.delivered || event.outcome.ok) break;
        const error = event.outcome.error;
        if (error.class === 'ContractError' && lastSent !== null) refused = { action: lastSent, code: error.code ?? 'a refusal' };
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
      note('new_key_per_attempt', at, `${what} used key ${shortKey(k2)}, but ${whose} had ${shortKey(k1)}: a retry must reuse the key made when the action was prepared — to the ledger, a new key is a new intent`);
    } else {
      note('args_changed_on_retry', at, `${what} sent ${formatAction(after)}, but ${whose} was ${formatAction(before)}: a retry must carry the pending action unchanged — under one key, other args are another request (PAYLOAD_CONFLICT)`);
    }
  }

  /** The first save after a TransientError: the action must stay pending, and the run go on (or end retry_exhausted). */
  function afterTransient(state: RunnerState, label: string, at: number): void {
    const t = transient!;
    transient = null;
    const told = t.definite ? `a TransientError on ${t.tool} (definite: the tool never ran)` : `a lost reply on ${t.tool} (indefinite: the effect may have happened)`;
    const title = t.definite ? 'a TransientError treated as a failure' : MISTAKES.lost_reply_as_failure.title;
    if (isTerminal(state.status) && state.status !== 'retry_exhausted') {
      note('lost_reply_as_failure', at, `after ${told} the step ended the run with ${state.status}: a TransientError is not a refusal — keep the action pending and retry it with the same key; only when its retries are spent is the run retry_exhausted`, title);
    } else if (state.status === 'retry_exhausted' && state.attempts <= state.task.max_retries) {
      note('lost_reply_as_failure', at, `after ${told} the step gave up (retry_exhausted) after attempt ${state.attempts}, with ${state.task.max_retries + 1 - state.attempts} attempt(s) of max_retries ${state.task.max_retries} left: retry it with the same key until they are spent`, title);
    } else if (state.pending === null && label !== 'observed') {
      note('pending_dropped', at, `after ${told} the step saved ${label} with nothing pending: ${t.definite ? 'the action never ran, and now it never will' : 'the effect may have happened, and only a retry with the same key can fetch its receipt'} — keep pending until the tool answers`);
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
