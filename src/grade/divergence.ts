/**
 * Where a learner's run first parts from the reference run of the same scenario and seed. Both traces are
 * read as the moments that matter — each persisted event (its label and its state), each request the
 * runner put on the wire, a crash, an exception, the end — and compared in order. Time and step numbers
 * are not compared: taking more steps for the same events is no mistake.
 */
import type { RunnerState, ToolAction } from '../runner/state.js';
import { canonicalJson } from '../core/canonical.js';
import type { RunResult } from '../check/RunResult.js';
import type { TraceEvent } from '../sim/events.js';
import { shortKey } from '../core/key.js';
import { formatAction, formatValue } from '../render/format.js';

type Moment =
  | { kind: 'saved'; step: number; seq: number; label: string; state: RunnerState }
  | { kind: 'sent'; step: number; action: ToolAction }
  | { kind: 'crash'; step: number; message: string }
  | { kind: 'threw'; step: number; name: string; message: string }
  | { kind: 'end'; step: number; status: string; steps: number };

export interface Divergence {
  /** The learner's harness step (or the reference's, where the learner's run has nothing there). */
  step: number;
  /** The learner's event number (`#13` in the trace), when the learner saved something there. */
  seq?: number;
  text: string;
}

function moments(trace: readonly TraceEvent[]): Moment[] {
  const out: Moment[] = [];
  for (const event of trace) {
    if (event.type === 'saved') out.push({ kind: 'saved', step: event.step, seq: event.seq, label: event.label, state: event.state });
    else if (event.type === 'request' && event.by === 'runner' && event.delivery !== 2) out.push({ kind: 'sent', step: event.step, action: event.action });
    else if (event.type === 'crash') out.push({ kind: 'crash', step: event.step, message: event.message });
    else if (event.type === 'runner_error') out.push({ kind: 'threw', step: event.step, name: event.errorName, message: event.message });
    else if (event.type === 'finished') out.push({ kind: 'end', step: event.step, status: event.status, steps: event.steps });
  }
  return out;
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** A saved event in a few words: the label, and what it carries. */
function savedDetail(m: Extract<Moment, { kind: 'saved' }>): string {
  const st = m.state;
  if (m.label === 'prepared') return ` (${formatAction(st.pending)})`;
  if (m.label === 'attempt_started') return ` (${st.pending?.name ?? 'no pending action'} attempt ${st.attempts}, call ${st.calls})`;
  if (m.label.startsWith('transient:')) return st.status === 'retry_exhausted' ? ' (retry_exhausted)' : ` (${st.pending?.name ?? 'nothing'} pending)`;
  if (m.label === 'observed') return '';
  if (st.result?.error) return ` (${shortened(st.result.error, ERROR_CHARS)})`;
  return '';
}

/** Error messages inside a divergence are cut to this: the problem line above has them whole. */
const ERROR_CHARS = 50;

/** A message cut to `max` characters: the problem line above the divergence has it in full. */
function shortened(message: string, max = 90): string {
  return message.length > max ? `${message.slice(0, max - 1)}…` : message;
}

function describe(m: Moment | undefined, who: 'the reference' | 'yours'): string {
  if (m === undefined) return `${who} had nothing more`;
  switch (m.kind) {
    case 'saved':
      return `${who} saved ${shortened(m.label, ERROR_CHARS + 'transient:'.length)}${savedDetail(m)}`;
    case 'sent':
      return `${who} sent ${formatAction(m.action)}`;
    case 'crash':
      return `${who} crashed here (${m.message})`;
    case 'threw':
      return `${who} threw ${m.name}: ${shortened(m.message)}`;
    case 'end':
      if (who === 'the reference') return `the reference's run ended with status ${m.status}`;
      return m.status === 'running' ? `your run saved nothing more and stopped still running after ${m.steps} steps` : `your run ended with status ${m.status} without saving it`;
  }
}

/** Two persisted states with the same label: the first field that differs, said plainly. */
function stateDifference(ref: RunnerState, mine: RunnerState): string {
  const rp = ref.pending;
  const mp = mine.pending;
  if (!same(rp, mp)) {
    if (rp === null) return `yours still has ${formatAction(mp)} pending, the reference has nothing pending`;
    if (mp === null) return `yours has nothing pending, the reference still has ${formatAction(rp)} pending`;
    if (rp.name !== mp.name) return `yours has ${formatAction(mp)} pending, the reference ${formatAction(rp)}`;
    if (rp.args.key !== mp.args.key && same({ ...rp.args, key: null }, { ...mp.args, key: null })) {
      return `your ${mp.name} has a new key ${shortKey(mp.args.key)}, the reference kept ${shortKey(rp.args.key)}`;
    }
    return `your pending action is ${formatAction(mp)}, the reference's ${formatAction(rp)}`;
  }
  for (const field of ['status', 'calls', 'attempts', 'decisions'] as const) {
    if (ref[field] !== mine[field]) return `your ${field} is ${formatValue(mine[field])}, the reference's ${formatValue(ref[field])}`;
  }
  if (!same(ref.observations, mine.observations)) {
    const names = [...new Set([...Object.keys(ref.observations), ...Object.keys(mine.observations)])].sort();
    const name = names.find((n) => !same(ref.observations[n], mine.observations[n]))!;
    const show = (v: unknown) => (v === undefined ? 'nothing' : canonicalJson(v));
    return `your observation of ${name} is ${show(mine.observations[name])}, the reference's ${show(ref.observations[name])}`;
  }
  if (!same(ref.result, mine.result)) return `your result is ${canonicalJson(mine.result)}, the reference's ${canonicalJson(ref.result)}`;
  return `your task is ${canonicalJson(mine.task)}, the reference's ${canonicalJson(ref.task)}`;
}

/** The learner's step and event number; where the learner's run had already ended, the reference's step. */
function where(m: Moment | undefined, fallback: Moment | undefined): { step: number; seq?: number } {
  const at = m === undefined || (m.kind === 'end' && fallback !== undefined) ? (fallback ?? m) : m;
  return at === undefined ? { step: 0 } : { step: at.step, ...(m?.kind === 'saved' ? { seq: m.seq } : {}) };
}

function heading(step: number, seq: number | undefined): string {
  return seq === undefined ? `step ${step}` : `step ${step} (#${seq})`;
}

/** The first moment where the two runs differ, or null when the learner's run follows the reference's to the end. */
export function firstDivergence(reference: RunResult, learner: RunResult): Divergence | null {
  const ref = moments(reference.trace);
  const mine = moments(learner.trace);
  for (let i = 0; i < Math.max(ref.length, mine.length); i++) {
    const r = ref[i];
    const m = mine[i];
    if (r !== undefined && m !== undefined && r.kind === m.kind) {
      if (r.kind === 'saved' && m.kind === 'saved') {
        if (r.label === m.label && same(r.state, m.state)) continue;
        if (r.label === m.label) {
          const at = where(m, r);
          return { ...at, text: `${heading(at.step, at.seq)}: both saved ${m.label}, but ${stateDifference(r.state, m.state)}` };
        }
      } else if (r.kind === 'sent' && m.kind === 'sent') {
        if (same(r.action, m.action)) continue;
      } else if (r.kind === 'crash' || (r.kind === 'end' && m.kind === 'end' && r.status === m.status)) {
        continue;
      } else if (r.kind === 'threw' && m.kind === 'threw' && r.name === m.name && r.message === m.message) {
        continue;
      }
    }
    const at = where(m, r);
    return { ...at, text: `${heading(at.step, at.seq)}: ${describe(r, 'the reference')}, ${describe(m, 'yours')}` };
  }
  return null;
}

/**
 * For a run that hung in `step`: what the reference did in that step, so the learner knows what their
 * step was supposed to do (null when the reference had finished by then).
 */
export function referenceStep(reference: RunResult, step: number): string | null {
  const done = moments(reference.trace).filter((m) => m.step === step && m.kind !== 'end');
  if (done.length === 0) return null;
  const said = done.map((m) => describe(m, 'the reference').replace(/^the reference /, ''));
  return `step ${step}: in this step the reference ${said.join(', then ')}; yours never returned`;
}
