/**
 * The classic mistakes of the exercise, read from the run's analysis (src/check/analysis.ts) — what the runner
 * had saved, what it put on the wire, what it was told — so that a failing scenario is diagnosed as the mistake that made it fail, not only
 * as the invariant it broke. Each mistake says which checks it explains: a run that broke invariant 5 is
 * diagnosed as "a ContractError retried" even if the same run also shows an earlier, harmless slip.
 *
 * The trace is the grader's own record (the learner's process never writes it), so a diagnosis cannot be forged.
 */
import { jsonCopy, sameJson } from '../core/canonical.js';
import { shortKey } from '../core/key.js';
import { formatAction } from '../render/format.js';
import { msg, type MessageKey } from '../render/words/index.js';
import type { Message, Param } from '../core/message.js';
import type { Run } from '../sim/Run.js';
import { isTerminal, type RunnerState, type ToolAction } from '../runner/state.js';
import { ScriptedPolicy } from '../runner/policy.js';
import { attemptsOutOfBounds } from '../check/invariants.js';
import { analyze, type Analysis, type Attempt, type Saved } from '../check/analysis.js';
import type { Divergence } from './divergence.js';

export const MISTAKE_IDS = [
  'crash_caught',
  'new_key_per_attempt',
  'args_changed_on_retry',
  'contract_error_retried',
  'budget_checked_late',
  'saved_late',
  'pending_dropped',
  'lost_reply_as_failure',
  'cleared_after_save',
  'finish_status_changed',
  'attempts_not_reset',
  'not_reauthorised',
  'transient_by_message',
  'transient_thrown',
  'budget_after_prepare',
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
  pending_dropped: { title: 'grade.mistake.pendingDropped.title', explains: ['inv3_same_key_same_args', 'inv6_success_has_receipt', 'inv1_one_effect_per_intent'] },
  lost_reply_as_failure: { title: 'grade.mistake.lostReplyAsFailure.title', explains: [] },
  cleared_after_save: { title: 'grade.mistake.clearedAfterSave.title', explains: ['inv3_same_key_same_args', 'inv4_log_rebuilds_state', 'inv1_one_effect_per_intent', 'inv2_call_budget'] },
  finish_status_changed: { title: 'grade.mistake.finishStatusChanged.title', explains: [] },
  attempts_not_reset: { title: 'grade.mistake.attemptsNotReset.title', explains: ['inv2_call_budget'] },
  not_reauthorised: { title: 'grade.mistake.notReauthorised.title', explains: [] },
  // A thrown error is told as the throw it is (diagnose.ts): these two name which throw.
  transient_by_message: { title: 'grade.mistake.transientByMessage.title', explains: [] },
  transient_thrown: { title: 'grade.mistake.transientThrown.title', explains: [] },
  budget_after_prepare: { title: 'grade.mistake.budgetAfterPrepare.title', explains: [] },
};

export interface Mistake {
  id: MistakeId;
  title: Message;
  /** What exactly happened, where, and why it breaks the rule. */
  message: Message;
  /** Its place in the trace: the earliest mistake is the first thing that went wrong. */
  at: number;
}

/** `#12 attempt_started`, or `#12 recovered` for a record read back after a crash, or that nothing was saved. */
const describeSaved = (saved: Saved | null): Param => (saved === null ? msg('grade.mistake.nothingSaved') : `#${saved.seq} ${saved.how === 'recovered' ? 'recovered' : saved.label}`);

/** Every mistake the trace shows, each at its first occurrence, in trace order. */
export function findMistakes(run: Run, analysis: Analysis = analyze(run)): Mistake[] {
  const found = new Map<MistakeId, Mistake>();
  const note = (id: MistakeId, at: number, message: Message, title: Message = msg(MISTAKES[id].title)) => {
    if (!found.has(id)) found.set(id, { id, title, message, at });
  };
  const max = run.scenario.task.max_calls;
  const firstSent = new Map<number, { action: ToolAction; call: number | undefined }>();
  /** The last refusal the runner was told of: sending that very action again is retrying it. */
  let refused: { action: ToolAction; code: Param } | null = null;
  /** The tools whose permission a revoke_permission fault withdrew, so far. */
  const revoked = new Set<string>();
  // An attempt counted past the tries of its action, when the action was prepared with the last one's count.
  const outOfBounds = attemptsOutOfBounds(run, analysis);
  if (outOfBounds?.kind === 'overcounted' && (outOfBounds.prepared?.attempts ?? 0) > 0) {
    const { step, name, attempt, made } = outOfBounds;
    note('attempts_not_reset', outOfBounds.at, msg('grade.mistake.attemptsNotReset', { step, name, attempt, made, carried: outOfBounds.prepared!.attempts }));
  }

  for (const { index: at, event, attempt: sent, saved: now, toldBefore } of analysis.events) {
    switch (event.type) {
      case 'saved': {
        // The first save after a TransientError (the last one told since the previous save or recovery).
        const failure = toldBefore?.findLast((a) => a.told?.outcome.ok === false && a.told.outcome.error.class === 'TransientError');
        if (failure !== undefined) afterTransient(failure, now!, at);
        break;
      }
      case 'fault':
        if (event.fault.kind === 'revoke_permission' && event.fault.at.tool !== undefined) revoked.add(event.fault.at.tool);
        break;
      case 'crash_caught':
        note('crash_caught', at, msg('grade.mistake.crashCaught', { how: event.how }));
        break;
      case 'request': {
        if (sent === null || sent.at !== at) break;
        const action = sent.action;
        const requests = sent.ordinal;
        const call = sent.call ?? requests;
        const what = sent.attempt !== undefined ? msg('grade.mistake.callAttempt', { call, name: action.name, attempt: sent.attempt }) : msg('grade.mistake.call', { call, name: action.name });
        // Every request of the trace counts, replays included.
        if (requests > max) {
          note('budget_checked_late', at, msg('grade.mistake.budgetCheckedLate', { what, requests, max }));
        }
        const saved = sent.saved?.state ?? null;
        if (saved === null || saved.pending === null) {
          note('saved_late', at, msg('grade.mistake.savedLate.nothingPending', { what, saved: describeSaved(sent.saved) }));
        } else if (!sameJson(saved.pending, action)) {
          differs(at, what, msg('grade.mistake.whose.saved'), saved.pending, action);
        } else if (sent.call !== undefined && sent.attempt !== undefined && (saved.calls !== sent.call || saved.attempts !== sent.attempt)) {
          note('saved_late', at, msg('grade.mistake.savedLate.notCounted', { what, saved: describeSaved(sent.saved), calls: saved.calls, attempts: saved.attempts }));
        }
        const first = firstSent.get(sent.decision);
        if (first === undefined) firstSent.set(sent.decision, { action, call: sent.call });
        else if (!sameJson(first.action, action) && first.action.name === action.name) {
          differs(at, what, msg('grade.mistake.whose.first', { call: first.call ?? '?' }), first.action, action);
        }
        if (revoked.has(action.name)) note('not_reauthorised', at, msg('grade.mistake.notReauthorised', { what, step: event.step, name: action.name }));
        if (refused !== null && sameJson(refused.action, action)) {
          note('contract_error_retried', at, msg('grade.mistake.contractErrorRetried', { what, code: refused.code }));
        }
        break;
      }
      case 'reply': {
        if (sent === null || sent.told?.at !== at || event.outcome.ok) break;
        const error = event.outcome.error;
        if (error.class === 'ContractError') refused = { action: sent.action, code: error.code ?? msg('grade.mistake.aRefusal') };
        break;
      }
    }
  }
  // A step that saved the observation with the action still pending, then cleared pending in memory only: the
  // log says "pending" until the next save, and a crash in between sends the action again.
  for (const { step, seq, logged, returned } of run.unsaved ?? []) {
    if (logged?.pending == null || returned.pending !== null || seq === null) continue;
    const at = run.trace.findIndex((event) => event.type === 'saved' && event.seq === seq);
    note('cleared_after_save', at, msg('grade.mistake.clearedAfterSave', { step, seq, action: formatAction(logged.pending) }));
    break;
  }
  // The run ended with another status than the policy's finish: what the policy answers at that very state.
  const end = run.trace.findLastIndex((event) => event.type === 'saved' && (event.state.status === 'succeeded' || event.state.status === 'gave_up'));
  if (end !== -1) {
    const saved = run.trace[end] as Extract<Run['trace'][number], { type: 'saved' }>;
    const finish = policyFinish(run, saved.state);
    if (finish !== null && finish !== saved.state.status) note('finish_status_changed', end, msg('grade.mistake.finishStatusChanged', { step: saved.step, seq: saved.seq, policy: finish, status: saved.state.status }));
  }
  return [...found.values()].sort((a, b) => a.at - b.at);

  /** Two versions of one pending action, `before` as `whose` had it: the key alone changed, or the args. */
  function differs(at: number, what: Message, whose: Message, before: ToolAction, after: ToolAction): void {
    const { key: k1, ...rest1 } = before.args;
    const { key: k2, ...rest2 } = after.args;
    if (k1 !== k2 && sameJson(rest1, rest2)) {
      note('new_key_per_attempt', at, msg('grade.mistake.newKeyPerAttempt', { what, key: shortKey(k2), whose, before: shortKey(k1) }));
    } else {
      note('args_changed_on_retry', at, msg('grade.mistake.argsChangedOnRetry', { what, action: formatAction(after), whose, before: formatAction(before) }));
    }
  }

  /** The first save after a TransientError: the action must stay pending, and the run go on (or end retry_exhausted). */
  function afterTransient(failed: Attempt, saved: Saved, at: number): void {
    const { state, label } = saved;
    const definite = failed.told?.outcome.ok === false && failed.told.outcome.error.certainty === 'definite';
    const failure = { definite, tool: failed.action.name };
    const told = msg(failure.definite ? 'grade.mistake.told.definite' : 'grade.mistake.told.indefinite', { tool: failure.tool });
    const title = msg(failure.definite ? 'grade.mistake.transientAsFailure.title' : MISTAKES.lost_reply_as_failure.title);
    if (isTerminal(state.status) && state.status !== 'retry_exhausted') {
      note('lost_reply_as_failure', at, msg('grade.mistake.endedRun', { told, status: state.status }), title);
    } else if (state.status === 'retry_exhausted' && state.attempts <= state.task.max_retries) {
      const left = state.task.max_retries + 1 - state.attempts;
      note('lost_reply_as_failure', at, msg('grade.mistake.gaveUpEarly', { told, attempts: state.attempts, left, max: state.task.max_retries }), title);
    } else if (state.pending === null && saved.parsed.kind !== 'observed') {
      note('pending_dropped', at, msg(failure.definite ? 'grade.mistake.pendingDropped.definite' : 'grade.mistake.pendingDropped.indefinite', { told, label }));
    }
  }
}

/**
 * The mistake that explains a failed run: among those it shows, the earliest that explains one of the checks
 * that failed; when only figures failed, the earliest of all. Null when the trace shows none.
 */
export function explainingMistake(run: Run, failedChecks: readonly string[], analysis: Analysis = analyze(run)): Mistake | null {
  const mistakes = findMistakes(run, analysis);
  const breaking = failedChecks.filter((id) => id === 'crash_caught' || id.startsWith('inv'));
  if (breaking.length === 0) return mistakes[0] ?? null;
  return mistakes.find((m) => MISTAKES[m.id].explains.some((id) => breaking.includes(id))) ?? null;
}

/** The status the scripted policy finishes with at this state, or null when its next action is no finish (or it cannot say). */
function policyFinish(run: Run, state: RunnerState): string | null {
  try {
    const action = new ScriptedPolicy(run.scenario.script).nextAction(jsonCopy({ ...state, status: 'running' as const })) as { kind?: string; status?: string };
    return action.kind === 'finish' && typeof action.status === 'string' ? action.status : null;
  } catch {
    return null;
  }
}

/**
 * A mistake read from the first divergence from the reference (the step and the field where the runs part), for a
 * run whose trace shows none: the reference ended budget_exhausted at a decision where the learner's step prepared
 * the action instead — the budget checked only after prepare.
 */
export function divergenceMistake(divergence: Divergence | null): Mistake | null {
  if (divergence === null || divergence.kind !== 'differ') return null;
  const { reference, yours } = divergence;
  if (reference?.kind !== 'saved' || yours?.kind !== 'saved') return null;
  if (reference.parsed.kind !== 'terminal' || reference.parsed.status !== 'budget_exhausted' || reference.state.pending !== null) return null;
  if (yours.state.pending == null || yours.state.decisions <= reference.state.decisions) return null;
  const params = { step: yours.step, seq: yours.seq, label: yours.label, action: formatAction(yours.state.pending), calls: yours.state.calls, max: yours.state.task.max_calls };
  return { id: 'budget_after_prepare', title: msg(MISTAKES.budget_after_prepare.title), message: msg('grade.mistake.budgetAfterPrepare', params), at: -1 };
}
