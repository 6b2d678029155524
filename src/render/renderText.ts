/**
 * The terminal trace: one line per persisted event, and under it what crossed the wire on that step —
 * what the database really did, the fault that fired, what the runner was told (definite or indefinite),
 * the crash and the recovery — then every check with expected vs actual. The words come from narrate.ts;
 * this file lays them out in columns that fit `width` (the CLI passes the terminal's, or a fixed one when
 * the output is not a terminal, so the same run prints the same bytes).
 */
import { purgedReceipts } from '../check/limits.js';
import { totalCalls } from '../check/durabilityFigures.js';
import { isBrokenScenario } from '../check/scenarioIntegrity.js';
import type { Check } from '../check/types.js';
import { describeFaults } from '../faults/types.js';
import type { RunResult } from '../check/RunResult.js';
import { displayWidth, flow, formatValue, GLUE, pad, padStart, shownStock, wrap, type Segments } from './format.js';
import { narrate, type Line, type Part } from './narrate.js';
import type { Style } from './style.js';
import { paint } from './tone.js';
import { msg, t, word, type Lang } from './words/index.js';
import { joined, type Param } from '../core/message.js';
import { storyOf } from './story.js';
import { wordsOf } from '../scenario/words.js';

/** The width when nobody says: what a terminal of the 1980s had and a projector still shows at a readable size. */
export const DEFAULT_WIDTH = 80;

export interface RenderOptions {
  /** The language the trace is told in. */
  lang: Lang;
  /** "5/17": the scenario's place in the batch, for the header. */
  position?: string;
  /** Columns to fit (default DEFAULT_WIDTH); only a single unbreakable token (a key, a path) may pass it. */
  width?: number;
}

export function renderRun(run: RunResult, style: Style, options: RenderOptions): string {
  const { lang } = options;
  const width = options.width ?? DEFAULT_WIDTH;
  return [renderHeader(run, style, options), renderEvents(lang, run, style, width), renderChecks(lang, run.checks, style, width), renderVerdict(lang, run, style, width)].join('\n') + '\n';
}

/** `━━ title ━━━━` across the width; a title too long for one line goes on under it. */
export function rule(title: string, style: Style, width: number): string {
  const head = `━━ ${title} `;
  if (displayWidth(head) + 3 <= width) return style.c.bold(head + '━'.repeat(width - displayWidth(head)));
  const lines = flow([[title, null]], { width, indent: '━━ ', hang: '   ' });
  return lines.map((l) => style.c.bold(l)).join('\n');
}

/** Parts of a line joined by ` · `, each kept whole when the line wraps. */
export function dotted(parts: string[]): string {
  return parts.map((p, i) => p.replaceAll(' ', GLUE) + (i < parts.length - 1 ? `${GLUE}·` : '')).join(' ');
}

export function renderHeader(run: RunResult, style: Style, options: RenderOptions): string {
  const { c } = style;
  const { lang } = options;
  const width = options.width ?? DEFAULT_WIDTH;
  const s = run.scenario;
  const { title } = wordsOf(s, lang);
  const lines = [rule(`${options.position ? `${options.position} ` : ''}${s.id} ━ ${title}`, style, width)];
  lines.push(c.dim(wrap(storyOf(lang, run), width, '  ')));
  const stock = Object.entries(s.inventory.items).map(([item, st]) => `${item} ${st.available} (v${st.version})`).join(', ');
  const facts = [t(lang, 'trace.head.seed', { seed: run.seed }), run.runner, `max_calls ${s.task.max_calls}`, `max_retries ${s.task.max_retries}`, t(lang, 'trace.head.stock', { stock })];
  // The database, when it is not SQLite (the default, never named: its headers stay as they always were).
  if (run.storage === 'postgres') facts.push(t(lang, 'trace.head.postgres'));
  // Many workers: how many, and the queue's clock (absent with one runner: its header stays the chapter's).
  if (run.workers !== undefined) facts.push(t(lang, 'trace.head.workers', { count: run.workers.names.length, lease: run.workers.leaseMs, sweep: run.workers.sweepEveryMs }));
  lines.push(...flow([[dotted(facts), null]], { width, indent: '  ' }));
  lines.push(...flow([[t(lang, 'trace.head.faults', { faults: describeFaults(s.faults) }), null]], { width, indent: '  ', hang: '    ' }));
  lines.push('');
  return lines.join('\n');
}

export function renderEvents(lang: Lang, run: RunResult, style: Style, width = DEFAULT_WIDTH): string {
  const lines = narrate(lang, run);
  const cols = columns(lang, lines, run);
  const out: string[] = [style.c.dim(headerLine(lang, cols))];
  if (cols.lane > 0) {
    // Many workers: a lane column, and the time on the first line of every event (the workers interleave).
    let last = -1;
    for (const line of lines) {
      out.push(...laneText(line, line.event === last ? null : run.trace[line.event]!.t, cols, style, width));
      last = line.event;
    }
    return out.join('\n');
  }
  for (const line of lines) {
    if (line.saved) out.push(...savedText(line, cols, style, width));
    else if (line.t !== undefined) {
      out.push(...flow(segments(line.parts, style), { width, indent: padStart(`${line.t}ms`, cols.t) + ' '.repeat(cols.sub - cols.t), hang: ' '.repeat(cols.sub + 2) }));
    } else {
      const indent = ' '.repeat(cols.sub + (line.depth ?? 0) * 2);
      out.push(...flow(segments(line.parts, style), { width, indent, hang: indent + '  ' }));
    }
  }
  return out.join('\n');
}

/** Column widths of one run's table, from what it holds: a short run is not padded for a long one. */
interface Columns {
  /** The step and calls columns: as wide as their heads ("step", "calls"), and at least a few digits. */
  step: number;
  calls: number;
  t: number;
  seq: number;
  label: number;
  /** Where the lines under a saved event start: under its label. */
  sub: number;
  /** Where a saved event's detail starts. */
  detail: number;
  /** Many workers: the lane column's width (the longest worker's name); 0 with one runner. */
  lane: number;
}

/** A label longer than this (a runner's own) is cut with an ellipsis so the columns hold. */
const MAX_LABEL_WIDTH = 22;
/** Below this many columns left for a saved event's detail, it goes on the lines under the event instead. */
const MIN_DETAIL_WIDTH = 28;

function columns(lang: Lang, lines: Line[], run: RunResult): Columns {
  const step = Math.max(4, displayWidth(t(lang, 'trace.col.step')));
  const calls = Math.max(5, displayWidth(t(lang, 'trace.col.calls')));
  const saved = lines.flatMap((l) => (l.saved ? [l.saved] : []));
  // Many workers: every event's line shows its time.
  const times = run.workers !== undefined ? lines.map((l) => run.trace[l.event]!.t) : lines.flatMap((l) => (l.saved ? [l.saved.t] : l.t !== undefined ? [l.t] : []));
  const time = Math.max(displayWidth(t(lang, 'trace.col.t')), ...times.map((x) => `${x}ms`.length));
  const seq = Math.max(1, ...saved.map((x) => String(x.seq).length));
  const label = Math.min(MAX_LABEL_WIDTH, Math.max(displayWidth(t(lang, 'trace.col.event')), ...saved.map((x) => displayWidth(x.label))));
  const workers = lines.flatMap((l) => (l.worker !== undefined ? [l.worker] : []));
  const lane = workers.length === 0 ? 0 : Math.max(displayWidth(t(lang, 'trace.col.worker')), ...workers.map(displayWidth));
  const sub = time + 1 + (lane > 0 ? lane + 1 : 0) + step + 1 + seq + 2;
  return { step, calls, t: time, seq, label, sub, detail: sub + label + 1 + calls + 2, lane };
}

/** The lane column's cell (and its space), or nothing with one runner. */
function laneCell(cols: Columns, text: string): string {
  return cols.lane === 0 ? '' : `${pad(text, cols.lane)} `;
}

function headerLine(lang: Lang, cols: Columns): string {
  return `${padStart(t(lang, 'trace.col.t'), cols.t)} ${laneCell(cols, t(lang, 'trace.col.worker'))}${padStart(t(lang, 'trace.col.step'), cols.step)} ${padStart('#', cols.seq)}  ${pad(t(lang, 'trace.col.event'), cols.label)} ${padStart(t(lang, 'trace.col.calls'), cols.calls)}  ${t(lang, 'trace.col.detail')}`;
}

/** A line in a many-worker trace: the time (on an event's first line), the worker's lane, then as with one runner. */
function laneText(line: Line, time: number | null, cols: Columns, style: Style, width: number): string[] {
  if (line.saved) return savedText(line, cols, style, width);
  const lead = `${time === null ? ' '.repeat(cols.t) : padStart(`${time}ms`, cols.t)} ${laneCell(cols, line.worker ?? '')}`;
  const indent = lead + ' '.repeat(cols.sub - displayWidth(lead) + (line.depth ?? 0) * 2);
  return flow(segments(line.parts, style), { width, indent, hang: ' '.repeat(displayWidth(indent) + 2) });
}

function savedText(line: Line, cols: Columns, style: Style, width: number): string[] {
  const s = line.saved!;
  const shown = displayWidth(s.label) > cols.label ? `${s.label.slice(0, cols.label - 1)}…` : s.label;
  const head = `${padStart(`${s.t}ms`, cols.t)} ${laneCell(cols, line.worker ?? '')}${padStart(String(s.step), cols.step)} ${padStart(String(s.seq), cols.seq)}  ${paint(style, s.labelTone, shown)}${' '.repeat(Math.max(1, cols.label - displayWidth(shown) + 1))}${padStart(String(s.calls), cols.calls)}`;
  if (line.parts.length === 0) return [head];
  const inline = width - cols.detail >= MIN_DETAIL_WIDTH;
  if (inline) return flow(segments(line.parts, style), { width, indent: head + '  ', hang: ' '.repeat(cols.detail) });
  // Too narrow for a detail column: the detail goes under the event, set in two columns from its lines.
  return [head, ...flow(segments(line.parts, style), { width, indent: ' '.repeat(cols.sub + 2) })];
}

/** A narrated line's parts as segments to lay out, each painted by its tone. */
function segments(parts: readonly Part[], style: Style): Segments {
  return parts.map(([text, how]) => [text, how === 'plain' ? null : (x: string) => paint(style, how, x)] as const);
}

const ID_WIDTH = 22;

export function renderChecks(lang: Lang, checks: Check[], style: Style, width = DEFAULT_WIDTH): string {
  const { c } = style;
  const lines = ['', c.bold(`  ${t(lang, 'trace.checks')}`)];
  for (const check of checks) {
    const mark = check.passed ? c.green('✔') : c.red('✘');
    const name = check.kind === 'invariant' ? check.id.replace(/_.*/, '') + ' ' + word(lang, check.title) : word(lang, check.title);
    const red = check.passed ? null : (x: string) => c.red(x);
    if (check.kind === 'expectation') {
      const text: Segments = [[`${t(lang, 'trace.expected', { value: formatValue(check.expected) })}${GLUE}·`, red], [t(lang, 'trace.actual', { value: formatValue(check.actual) }), red]];
      lines.push(...flow(text, { width, indent: `  ${mark} ${pad(name, ID_WIDTH)} `, hang: ' '.repeat(6) }));
      if (!check.passed) lines.push(...flow([[word(lang, check.message), red]], { width, indent: '      ' }));
    } else {
      lines.push(...flow([[name, red]], { width, indent: `  ${mark} `, hang: '      ' }));
      if (!check.passed) lines.push(...flow([[word(lang, check.message), red]], { width, indent: '      ' }));
    }
  }
  return lines.join('\n');
}

/** What a run ended with, as a message: `tool_error · calls 5 · ledger 1 · stock camera 2`. */
export function figuresMessage(run: RunResult): Param {
  const stock = shownStock(run).map((s) => msg('trace.figure.stock', { item: s.item, n: s.available ?? '-' }));
  const dlq = run.dlq.length > 0 ? [msg('trace.figure.dlq', { rows: run.dlq.map((row) => `${row.dlqId} ${row.status}`).join(', ') })] : [];
  const calls = msg('trace.figure.calls', { n: totalCalls(run) ?? '-' });
  // docs/spec.md §13–§14: what the purge deleted, what the remote service charged — only where they can happen
  const limits = [
    ...(run.scenario.retention !== undefined ? [msg('limits.figure.purged', { n: purgedReceipts(run).length })] : []),
    ...(run.scenario.remote !== undefined ? [msg('limits.figure.charges', { n: run.db.charges?.length ?? 0 })] : []),
  ];
  return joined('trace.figures.and', [run.state?.status ?? msg('trace.figure.noState'), calls, msg('trace.figure.ledger', { n: run.db.ledger.length }), ...stock, ...limits, ...dlq]);
}

export function figures(lang: Lang, run: RunResult): string {
  const said = figuresMessage(run);
  return typeof said === 'object' ? word(lang, said) : String(said);
}

export function renderVerdict(lang: Lang, run: RunResult, style: Style, width = DEFAULT_WIDTH): string {
  const { c } = style;
  const verdict = run.passed ? c.green.bold(t(lang, 'trace.verdict.pass')) : isBrokenScenario(run) ? c.red.bold(t(lang, 'trace.verdict.broken')) : c.red.bold(t(lang, 'trace.verdict.fail'));
  const parts = [...figures(lang, run).split(' · '), ...(run.crashes > 0 ? [t(lang, 'trace.crashesRecovered', { n: run.crashes })] : [])];
  return flow([[`${verdict}${GLUE}${run.scenario.id}:`, null], [dotted(parts), null]], { width, indent: '  ', hang: '    ' }).join('\n') + '\n';
}
