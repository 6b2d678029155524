/**
 * The terminal trace: one line per persisted event, and under it what crossed the wire on that step —
 * what the database really did, the fault that fired, what the runner was told (definite or indefinite),
 * the crash and the recovery — then every check with expected vs actual.
 */
import { isBrokenScenario } from '../check/scenarioIntegrity.js';
import type { Check } from '../check/types.js';
import { describeFault, describeFaults } from '../faults/types.js';
import { reserveKey } from '../inventory/keys.js';
import type { RunnerState } from '../runner/state.js';
import type { RunResult } from '../check/RunResult.js';
import type { TraceEventOf } from '../sim/events.js';
import { formatAction, formatDiff, formatReply, formatValue, pad, padStart, shownStock, wrap } from './format.js';
import type { Style } from './style.js';

const WIDTH = 100;
/** Sub-lines (what happened on the wire) start under the event column. */
const SUB = ' '.repeat(23);

export interface RenderOptions {
  /** "5/17": the scenario's place in the batch, for the header. */
  position?: string;
}

export function renderRun(run: RunResult, style: Style, options: RenderOptions = {}): string {
  return [renderHeader(run, style, options), renderEvents(run, style), renderChecks(run.checks, style), renderVerdict(run, style)].join('\n') + '\n';
}

export function renderHeader(run: RunResult, style: Style, options: RenderOptions = {}): string {
  const { c } = style;
  const s = run.scenario;
  const head = `━━ ${options.position ? `${options.position} ` : ''}${s.id} ━ ${s.title} `;
  const lines = [c.bold(head + '━'.repeat(Math.max(3, WIDTH - head.length)))];
  // The explanation tells the scenario as the reference runner lives it; say so when another runner plays it.
  const story = run.runner === 'ReferenceRunner' ? s.explain : `With the reference runner: ${s.explain}`;
  lines.push(c.dim(wrap(story, WIDTH, '  ')));
  const stock = Object.entries(s.inventory.items).map(([item, st]) => `${item} ${st.available} (v${st.version})`).join(', ');
  lines.push(`  seed ${run.seed} · ${run.runner} · max_calls ${s.task.max_calls} · max_retries ${s.task.max_retries} · stock ${stock}`);
  lines.push(`  faults: ${describeFaults(s.faults)}`);
  lines.push('');
  lines.push(c.dim(`       t step   #  ${pad('event', 22)}calls  pending action / result`));
  return lines.join('\n');
}

export function renderEvents(run: RunResult, style: Style): string {
  const { c } = style;
  const lines: string[] = [];
  let previous: RunnerState | null = null;
  /** The last thing the database really did for the runner in this step: the truth behind an indefinite error. */
  let truth: string | null = null;
  /** The last refusal the runner was told of, to flag an attempt that repeats it. */
  let refusedBy: string | null = null;
  /** The runner's request now at the tool is the network's second delivery of the same request (duplicate_delivery). */
  let secondDelivery = false;
  for (const event of run.trace) {
    switch (event.type) {
      case 'saved':
        lines.push(savedLine(event, previous, run, style, refusedBy));
        if (event.label === 'attempt_started' || event.state.pending === null) refusedBy = null;
        previous = event.state;
        truth = null;
        break;
      case 'request':
        if (event.by === 'runner') secondDelivery = event.delivery === 2;
        if (event.by === 'other') lines.push(SUB + c.magenta(`⇄ other client → ${formatAction(event.action)}`));
        else if (event.delivery === 2) lines.push(SUB + c.magenta('→ the same request is delivered a second time'));
        else if (previous?.pending && formatAction(previous.pending) !== formatAction(event.action)) {
          lines.push(SUB + c.red(`→ sent ${formatAction(event.action)} (differs from the saved pending action)`));
        }
        break;
      case 'db': {
        const who = event.by === 'other' ? 'other client: ' : '';
        if (event.ledgerHit) {
          lines.push(SUB + c.cyan(`${who}ledger hit: same key, same fingerprint → original receipt ${event.ledgerHit.receiptId}, no change`));
          // A first attempt that meets its own key is two intents sharing one — unless the network delivered it twice.
          if (event.by === 'runner' && previous?.attempts === 1 && !secondDelivery) {
            lines.push(SUB + c.yellow('  ⚠ on a first attempt: this key already had a receipt from an earlier request — two intents sharing one key?'));
          }
          if (event.by === 'runner') truth = `the effect was committed earlier (${event.ledgerHit.receiptId})`;
        } else if (event.committed) {
          lines.push(SUB + c.cyan(`${who}db: ${formatDiff(event.diff)} · committed`));
          if (event.by === 'runner') truth = formatDiff(event.diff) === 'no change' ? 'nothing changed' : `committed: ${formatDiff(event.diff)}`;
        } else {
          lines.push(SUB + c.cyan(`${who}db: ${formatDiff(event.diff)} · inside the transaction, not committed`));
          truth = 'nothing committed: the transaction rolls back';
        }
        if (event.committed && !event.ledgerHit && event.diff.stock.length > 0 && event.diff.ledgerAdded.length === 0 && event.tool === 'reserve') {
          lines.push(SUB + c.red.bold('  ⚠ an effect committed without its receipt'));
          if (event.by === 'runner') truth = `committed: ${formatDiff(event.diff)}, with no ledger row`;
        }
        break;
      }
      case 'fault':
        lines.push(SUB + c.magenta.bold(`⚡ fault ${describeFault(event.fault)}: ${event.note}`));
        break;
      case 'reply':
        lines.push(...replyLines(event, truth, style));
        if (event.by === 'runner' && event.delivered && !event.outcome.ok && event.outcome.error.class === 'ContractError') refusedBy = event.outcome.error.code ?? 'a ContractError';
        break;
      case 'crash_caught':
        lines.push(SUB + c.red.bold(`⚠ the runner caught the crash: ${event.how} — a crash ends the process; let it through`));
        break;
      case 'crash':
        lines.push(SUB + c.red.bold(`✖ CRASH (${event.point}): ${event.message} — both connections closed, uncommitted work lost`));
        if (truth !== null) lines.push(SUB + c.red(`  in truth: ${truth}; the runner never saw it`));
        break;
      case 'recovered': {
        const st = event.state;
        const where = event.seq === null ? 'an empty log' : `event #${event.seq}`;
        const what = st === null ? 'nothing to resume' : st.pending ? `${st.pending.name} pending, attempt ${st.attempts}, calls ${st.calls}` : `nothing pending, calls ${st.calls}`;
        lines.push(`${padStart(`${event.t}ms`, 8)}${' '.repeat(15)}` + c.green.bold(`↻ recovered: new connections, a new ${run.runner}; state rebuilt from ${where} — ${what}`));
        previous = st;
        break;
      }
      case 'runner_error':
        lines.push(SUB + c.red.bold(`✘ the runner threw ${event.errorName}: ${event.message}`));
        break;
      case 'finished':
        if (!run.state || run.state.status === 'running') lines.push(SUB + c.red(`■ stopped after ${event.steps} steps with status ${event.status}`));
        break;
    }
  }
  return lines.join('\n');
}

/** Width of the event column; a longer label (a runner's own) is cut with an ellipsis so the columns hold. */
const LABEL_WIDTH = 22;

function savedLine(event: TraceEventOf<'saved'>, previous: RunnerState | null, run: RunResult, style: Style, refusedBy: string | null): string {
  const { c } = style;
  const st = event.state;
  const shown = event.label.length > LABEL_WIDTH ? `${event.label.slice(0, LABEL_WIDTH - 1)}…` : event.label;
  const label = colorLabel(shown, st, style);
  const head = `${padStart(`${event.t}ms`, 8)} ${padStart(String(event.step), 4)} ${padStart(String(event.seq), 3)}  ${label}${' '.repeat(Math.max(1, LABEL_WIDTH - shown.length))}${padStart(String(st.calls), 5)}  `;
  let detail = '';
  if (event.label === 'started') detail = `task ${st.task.id}`;
  else if (event.label === 'prepared') detail = `${formatAction(st.pending)}${keyNote(st, run, style)}`;
  else if (event.label === 'attempt_started') {
    const changed = previous?.pending && st.pending && previous.decisions === st.decisions && previous.pending.args.key !== st.pending.args.key;
    const flags = [
      changed ? '⚠ the key changed since the last save of this action' : '',
      refusedBy !== null ? `⚠ retried after ContractError ${refusedBy}` : '',
      st.calls > st.task.max_calls ? `⚠ call ${st.calls} exceeds max_calls ${st.task.max_calls}` : '',
    ].filter(Boolean);
    detail = `${formatAction(st.pending)} · attempt ${st.attempts}${flags.map((f) => c.red.bold(`  ${f}`)).join('')}`;
  } else if (event.label === 'observed') {
    // The action just observed: the one pending before, or else the observation that changed.
    const name = previous?.pending?.name ?? Object.keys(st.observations).find((k) => JSON.stringify(st.observations[k]) !== JSON.stringify(previous?.observations[k]));
    detail = name ? `${name} → ${formatReply(name, st.observations[name])}` : 'observed';
  } else if (event.label.startsWith('transient:')) {
    const lostName = previous?.pending?.name ?? 'the action';
    if (st.pending === null) detail = c.red(`${lostName} dropped — nothing pending${lostName === 'reserve' ? ' (its effect may have happened)' : ''}`);
    else if (st.status === 'retry_exhausted') {
      detail = c.yellow(`retry_exhausted after ${st.attempts} attempt(s): ${st.pending.name} stays pending${st.pending.name === 'reserve' ? ' (its effect may have happened)' : ''}`);
    } else detail = `${st.pending.name} stays pending · attempt ${st.attempts} of ${st.task.max_retries + 1}`;
  } else if (st.status === 'budget_exhausted') {
    const next = st.pending ? `the retry of ${st.pending.name}` : 'the next action';
    detail = `budget_exhausted: ${st.calls} of max_calls ${st.task.max_calls} spent, none left for ${next}`;
  } else if (st.status !== 'running') detail = st.result?.error ? `${st.status}: ${st.result.error}` : st.status;
  else detail = st.pending ? `${formatAction(st.pending)} · attempt ${st.attempts}` : '';
  return head + detail;
}

/** Where the key on a prepared reserve came from: made from the intent here, or given by the policy. */
function keyNote(state: RunnerState, run: RunResult, style: Style): string {
  const action = state.pending;
  if (action?.name !== 'reserve' || action.args.key === undefined) return '';
  const step = run.scenario.script[state.decisions - 1];
  if (step?.kind === 'tool' && step.args.key !== undefined) return style.c.dim('  ← key given by the policy');
  const derived = reserveKey(state.task.id, action.args as { item: unknown; qty: unknown });
  return action.args.key === derived ? style.c.dim('  ← key made once, here (task, item, qty)') : style.c.red('  ← a key not derived from the intent');
}

function colorLabel(label: string, state: RunnerState, style: Style): string {
  const { c } = style;
  if (label === 'succeeded') return c.green.bold(label);
  if (state.status !== 'running' && !label.startsWith('transient:')) return c.red.bold(label);
  if (label.startsWith('transient:')) return c.yellow(label);
  if (label === 'observed') return c.green(label);
  if (label === 'prepared') return c.cyan(label);
  if (label === 'attempt_started') return c.blue(label);
  return label;
}

function replyLines(event: TraceEventOf<'reply'>, truth: string | null, style: Style): string[] {
  const { c } = style;
  const who = event.by === 'other' ? 'other client ' : '';
  if (event.outcome.ok) {
    const text = `${who}← ${formatReply(event.tool, event.outcome.value)}`;
    return [SUB + (event.delivered ? c.green(text) : c.dim(`${text} (this first reply is never delivered)`))];
  }
  const e = event.outcome.error;
  const name = e.class === 'ContractError' ? `ContractError ${e.message}` : `TransientError ${e.message}`;
  let meaning: string;
  if (e.class === 'ContractError') meaning = 'definite: this request was refused and changed nothing — never retried';
  else if (e.certainty === 'definite') meaning = 'definite: the tool never ran — safe to retry';
  else meaning = 'INDEFINITE: the effect may have happened — retry only with the same key';
  const lines = [SUB + c.red(`${who}✘ ${name} · `) + (e.certainty === 'indefinite' ? c.red.bold(meaning) : c.red(meaning)) + (event.delivered ? '' : c.dim(' (never delivered)'))];
  if (e.certainty === 'indefinite' && truth !== null) lines.push(SUB + c.yellow(`  in truth: ${truth}; the runner cannot know`));
  if (event.changedData) lines.push(SUB + c.red.bold('  but the refused call CHANGED the data'));
  if (event.receiptExisted) lines.push(SUB + c.red.bold('  but this very request (same key, same fingerprint) already has a receipt'));
  return lines;
}

const ID_WIDTH = 22;

export function renderChecks(checks: Check[], style: Style): string {
  const { c } = style;
  const lines = ['', c.bold('  checks')];
  for (const check of checks) {
    const mark = check.passed ? c.green('✔') : c.red('✘');
    const name = pad(check.kind === 'invariant' ? check.id.replace(/_.*/, '') + ' ' + check.title : check.title, ID_WIDTH);
    if (check.kind === 'expectation') {
      const text = `expected ${formatValue(check.expected)} · actual ${formatValue(check.actual)}`;
      lines.push(`  ${mark} ${pad(name, ID_WIDTH)} ${check.passed ? text : c.red(text)}`);
      if (!check.passed) lines.push(`      ${c.red(check.message)}`);
    } else {
      lines.push(`  ${mark} ${check.passed ? name : c.red(name)}`);
      if (!check.passed) lines.push(wrap(check.message, WIDTH, '      ').split('\n').map((l) => c.red(l)).join('\n'));
    }
  }
  return lines.join('\n');
}

export function figures(run: RunResult): string {
  const stock = shownStock(run).map((s) => `stock ${s.item} ${s.available ?? '-'}`);
  return [run.state?.status ?? 'no state', `calls ${run.state?.calls ?? '-'}`, `ledger ${run.db.ledger.length}`, ...stock].join(' · ');
}

export function renderVerdict(run: RunResult, style: Style): string {
  const { c } = style;
  const word = run.passed ? c.green.bold('PASS') : isBrokenScenario(run) ? c.red.bold('BROKEN SCENARIO') : c.red.bold('FAIL');
  return `  ${word} ${run.scenario.id}: ${figures(run)}${run.crashes > 0 ? ` · ${run.crashes} crash(es) recovered` : ''}\n`;
}
