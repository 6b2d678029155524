/**
 * Where a learner's run first parts from the reference run of the same scenario and seed. Both runs are
 * read from their analyses (src/check/analysis.ts) as the moments that matter — each persisted event (its
 * label and its state), each request the runner put on the wire, a crash, an exception, the end — and
 * compared in order. Time and step numbers
 * are not compared: taking more steps for the same events is no mistake. A divergence is data (the moments
 * where the runs part); `divergenceText` words it, in the language a reporter gives.
 */
import type { RunnerState, ToolAction } from '../runner/state.js';
import { canonicalJson } from '../core/canonical.js';
import type { RunResult } from '../check/RunResult.js';
import { analyze } from '../check/analysis.js';
import { LABEL_PREFIX, type Label } from '../check/label.js';
import { shortKey } from '../core/key.js';
import { formatAction, formatValue } from '../render/format.js';
import { said, t, toolText, type Lang } from '../render/words/index.js';
import type { Message, Said } from '../core/message.js';

export type Moment =
  | { kind: 'saved'; step: number; seq: number; label: string; parsed: Label; state: RunnerState }
  | { kind: 'sent'; step: number; action: ToolAction }
  | { kind: 'crash'; step: number; message: Message }
  | { kind: 'threw'; step: number; name: string; message: Said }
  | { kind: 'end'; step: number; status: string; steps: number };

type Done = Exclude<Moment, { kind: 'end' }>;

export type Divergence = {
  /** The learner's harness step (or the reference's, where the learner's run has nothing there). */
  step: number;
  /** The learner's event number (`#13` in the trace), when the learner saved something there. */
  seq?: number;
} & (
  /** Both runs saved the same label with different states. */
  | { kind: 'state'; label: string; reference: RunnerState; yours: RunnerState }
  /** The runs did different things (one of them may have done nothing more). */
  | { kind: 'differ'; reference: Moment | undefined; yours: Moment | undefined }
  /** The learner's run hung in a step (or its process died there): what the reference did in that step. */
  | { kind: 'hung' | 'died'; did: Done[] }
);

/** The moments of a run, read from its analysis: each save (its label parsed), each attempt on the wire, a crash, an exception, the end. */
function moments(run: RunResult): Moment[] {
  const out: Moment[] = [];
  for (const { event, index, attempt, saved } of analyze(run).events) {
    if (event.type === 'saved') out.push({ kind: 'saved', step: event.step, seq: event.seq, label: event.label, parsed: saved!.parsed, state: event.state });
    else if (attempt?.at === index) out.push({ kind: 'sent', step: event.step, action: attempt.action });
    else if (event.type === 'crash') out.push({ kind: 'crash', step: event.step, message: event.message });
    else if (event.type === 'runner_error') out.push({ kind: 'threw', step: event.step, name: event.errorName, message: event.message });
    else if (event.type === 'finished') out.push({ kind: 'end', step: event.step, status: event.status, steps: event.steps });
  }
  return out;
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** A saved event in a few words: the label, and what it carries. */
function savedDetail(lang: Lang, m: Extract<Moment, { kind: 'saved' }>): string {
  const st = m.state;
  switch (m.parsed.kind) {
    case 'prepared':
      return t(lang, 'grade.diverge.detail.paren', { text: formatAction(st.pending) });
    case 'attempt_started':
      return t(lang, 'grade.diverge.detail.attempt', { name: st.pending?.name ?? t(lang, 'grade.diverge.noPendingAction'), attempts: st.attempts, calls: st.calls });
    case 'transient':
      if (st.status === 'retry_exhausted') return t(lang, 'grade.diverge.detail.paren', { text: 'retry_exhausted' });
      return st.pending ? t(lang, 'grade.diverge.detail.pending', { name: st.pending.name }) : t(lang, 'grade.diverge.detail.nothingPending');
    case 'observed':
      return '';
    default:
      return st.result?.error ? t(lang, 'grade.diverge.detail.paren', { text: shortened(toolText(lang, st.result.error), ERROR_CHARS) }) : '';
  }
}

/** Error messages inside a divergence are cut to this: the problem line above has them whole. */
const ERROR_CHARS = 50;

/** A message cut to `max` characters: the problem line above the divergence has it in full. */
function shortened(message: string, max = 90): string {
  return message.length > max ? `${message.slice(0, max - 1)}…` : message;
}

/** What a run did at a moment, without saying whose run (`saved prepared (…)`, `sent reserve(…)`). */
function did(lang: Lang, m: Done | undefined): string {
  if (m === undefined) return t(lang, 'grade.diverge.nothingMore');
  switch (m.kind) {
    case 'saved':
      return t(lang, 'grade.diverge.saved', { label: shortened(toolText(lang, m.label), ERROR_CHARS + LABEL_PREFIX.transient.length), detail: savedDetail(lang, m) });
    case 'sent':
      return t(lang, 'grade.diverge.sent', { action: formatAction(m.action) });
    case 'crash':
      return t(lang, 'grade.diverge.crashed', { message: m.message });
    case 'threw':
      return t(lang, 'grade.diverge.threw', { name: m.name, message: shortened(said(lang, m.message)) });
  }
}

function describe(lang: Lang, m: Moment | undefined, who: 'reference' | 'yours'): string {
  if (m?.kind === 'end') {
    if (who === 'reference') return t(lang, 'grade.diverge.referenceEnded', { status: m.status });
    return m.status === 'running' ? t(lang, 'grade.diverge.yoursStillRunning', { steps: m.steps }) : t(lang, 'grade.diverge.yoursEnded', { status: m.status });
  }
  return t(lang, 'grade.diverge.subject', { who: t(lang, who === 'reference' ? 'grade.diverge.reference' : 'grade.diverge.yours'), what: did(lang, m) });
}

/** Two persisted states with the same label: the first field that differs, said plainly. */
function stateDifference(lang: Lang, ref: RunnerState, mine: RunnerState): string {
  const rp = ref.pending;
  const mp = mine.pending;
  if (!same(rp, mp)) {
    if (rp === null) return t(lang, 'grade.diverge.state.minePendingOnly', { action: formatAction(mp) });
    if (mp === null) return t(lang, 'grade.diverge.state.referencePendingOnly', { action: formatAction(rp) });
    if (rp.name !== mp.name) return t(lang, 'grade.diverge.state.otherAction', { action: formatAction(mp), reference: formatAction(rp) });
    if (rp.args.key !== mp.args.key && same({ ...rp.args, key: null }, { ...mp.args, key: null })) {
      return t(lang, 'grade.diverge.state.newKey', { name: mp.name, key: shortKey(mp.args.key), reference: shortKey(rp.args.key) });
    }
    return t(lang, 'grade.diverge.state.otherPending', { action: formatAction(mp), reference: formatAction(rp) });
  }
  for (const field of ['status', 'calls', 'attempts', 'decisions'] as const) {
    if (ref[field] !== mine[field]) return t(lang, 'grade.diverge.state.field', { field, value: formatValue(mine[field]), reference: formatValue(ref[field]) });
  }
  if (!same(ref.observations, mine.observations)) {
    const names = [...new Set([...Object.keys(ref.observations), ...Object.keys(mine.observations)])].sort();
    const name = names.find((n) => !same(ref.observations[n], mine.observations[n]))!;
    const show = (v: unknown): string => (v === undefined ? t(lang, 'grade.diverge.nothing') : canonicalJson(v));
    return t(lang, 'grade.diverge.state.observation', { name, value: show(mine.observations[name]), reference: show(ref.observations[name]) });
  }
  if (!same(ref.result, mine.result)) return t(lang, 'grade.diverge.state.result', { value: canonicalJson(mine.result), reference: canonicalJson(ref.result) });
  return t(lang, 'grade.diverge.state.task', { value: canonicalJson(mine.task), reference: canonicalJson(ref.task) });
}

/** The learner's step and event number; where the learner's run had already ended, the reference's step. */
function where(m: Moment | undefined, fallback: Moment | undefined): { step: number; seq?: number } {
  const at = m === undefined || (m.kind === 'end' && fallback !== undefined) ? (fallback ?? m) : m;
  return at === undefined ? { step: 0 } : { step: at.step, ...(m?.kind === 'saved' ? { seq: m.seq } : {}) };
}

function heading(lang: Lang, step: number, seq: number | undefined): string {
  return seq === undefined ? t(lang, 'grade.diverge.step', { step }) : t(lang, 'grade.diverge.stepSeq', { step, seq });
}

/** The first moment where the two runs differ, or null when the learner's run follows the reference's to the end. */
export function firstDivergence(reference: RunResult, learner: RunResult): Divergence | null {
  const ref = moments(reference);
  const mine = moments(learner);
  for (let i = 0; i < Math.max(ref.length, mine.length); i++) {
    const r = ref[i];
    const m = mine[i];
    if (r !== undefined && m !== undefined && r.kind === m.kind) {
      if (r.kind === 'saved' && m.kind === 'saved') {
        if (r.label === m.label && same(r.state, m.state)) continue;
        if (r.label === m.label) {
          return { ...where(m, r), kind: 'state', label: m.label, reference: r.state, yours: m.state };
        }
      } else if (r.kind === 'sent' && m.kind === 'sent') {
        if (same(r.action, m.action)) continue;
      } else if (r.kind === 'crash' || (r.kind === 'end' && m.kind === 'end' && r.status === m.status)) {
        continue;
      } else if (r.kind === 'threw' && m.kind === 'threw' && r.name === m.name && same(r.message, m.message)) {
        continue;
      }
    }
    return { ...where(m, r), kind: 'differ', reference: r, yours: m };
  }
  return null;
}

/** Where the runs part, in words. */
export function divergenceText(lang: Lang, d: Divergence): string {
  switch (d.kind) {
    case 'state':
      return t(lang, 'grade.diverge.bothSaved', { at: heading(lang, d.step, d.seq), label: d.label, difference: stateDifference(lang, d.reference, d.yours) });
    case 'differ':
      return t(lang, 'grade.diverge.differ', { at: heading(lang, d.step, d.seq), reference: describe(lang, d.reference, 'reference'), yours: describe(lang, d.yours, 'yours') });
    default:
      return t(lang, d.kind === 'hung' ? 'grade.diverge.hung' : 'grade.diverge.died', { step: d.step, did: d.did.map((m) => did(lang, m)).join(t(lang, 'grade.diverge.then')) });
  }
}

/**
 * For a run that hung in `step` (or whose process ended there): what the reference did in that step, so the
 * learner knows what their step was supposed to do (null when the reference had finished by then).
 */
export function referenceStep(reference: RunResult, step: number, ended: 'hung' | 'died' = 'hung'): Divergence | null {
  const done = moments(reference).filter((m): m is Done => m.step === step && m.kind !== 'end');
  return done.length === 0 ? null : { step, kind: ended, did: done };
}
