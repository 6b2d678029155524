/**
 * One run as a page: the timeline (virtual time down the left; lanes for the runner's event store, the runner,
 * the wire, the tool and the tool's database), the checks with expected and actual, and a panel that shows
 * the rows of both databases as they were at the chosen moment. A pure function of the judged run: the same
 * scenario and seed give the same bytes.
 */
import type { RunResult } from '../../check/RunResult.js';
import { isBrokenScenario } from '../../check/scenarioIntegrity.js';
import type { Check } from '../../check/types.js';
import { describeFaults } from '../../faults/types.js';
import type { ToolSnapshot } from '../../inventory/snapshot.js';
import type { RunnerState } from '../../runner/state.js';
import { storyOf } from '../story.js';
import { wordsOf } from '../../scenario/words.js';
import type { TraceEvent } from '../../sim/events.js';
import { formatAction, formatValue, traceKey, type KeyFormat } from '../format.js';
import { figures } from '../renderText.js';
import { esc, escText } from './escape.js';
import { laneHtml, LANES, type LaneHtml } from './lanes.js';
import { locateChecks } from './locateChecks.js';
import { timelineOf, type Moment, type Timeline } from './moments.js';
import { page } from './page.js';
import { say } from './say.js';
import { columnsOf, queueBox, QUEUE_SCRIPT, queueStates, workerCells, workerLaneHead, workerRowCells, workerStyle, type QueueStates, type WorkerColumns } from './workerLanes.js';
import { t, word, type MessageKey, type Lang } from '../words/index.js';
import { toolText } from '../words/index.js';
import { isMessage } from '../../core/message.js';

/** Each lane's name and what it holds (html.lane.<lane>, html.lane.<lane>.holds). */
const LANE_TITLES: Record<(typeof LANES)[number], [MessageKey, MessageKey]> = {
  events: ['html.lane.events', 'html.lane.events.holds'],
  runner: ['html.lane.runner', 'html.lane.runner.holds'],
  wire: ['html.lane.wire', 'html.lane.wire.holds'],
  tool: ['html.lane.tool', 'html.lane.tool.holds'],
  db: ['html.lane.db', 'html.lane.db.holds'],
};

/** The keys that step through a page, as the help line shows them. */
const KEYS = '<kbd>←</kbd> <kbd>→</kbd> (<kbd>Home</kbd> <kbd>End</kbd>)';

/** Table heads, one per message. */
function th(lang: Lang, ...keys: MessageKey[]): string {
  return keys.map((key) => `<th>${esc(t(lang, key))}</th>`).join('');
}

export function renderRunHtml(lang: Lang, run: RunResult): string {
  const s = run.scenario;
  // Many workers: a lane per worker (workerLanes.ts); one runner's page is what it always was.
  const columns = run.workers !== undefined ? columnsOf(run) : null;
  const queue = columns !== null ? queueStates(run) : null;
  const body = [
    header(lang, run),
    '<main class="run">',
    columns !== null ? workersTimelineHtml(lang, run, columns, queue!) : timelineHtml(lang, run),
    checksHtml(lang, run),
    '</main>',
    panel(lang, run, timelineOf(run), queue),
  ].join('\n');
  return columns !== null ? page(lang, `${s.id} — faultlab`, body, { bodyClass: 'workers', style: workerStyle(columns), script: QUEUE_SCRIPT }) : page(lang, `${s.id} — faultlab`, body);
}

export function verdictWord(lang: Lang, run: RunResult): string {
  return t(lang, run.passed ? 'trace.verdict.pass' : isBrokenScenario(run) ? 'trace.verdict.broken' : 'trace.verdict.fail');
}

function header(lang: Lang, run: RunResult): string {
  const s = run.scenario;
  const { title } = wordsOf(s, lang);
  const stock = Object.entries(s.inventory.items).map(([item, st]) => `${item} ${st.available} (v${st.version})`).join(', ');
  return [
    '<header class="top">',
    `<h1><code>${esc(s.id)}</code> — ${esc(title)}</h1>`,
    `<p class="explain">${esc(storyOf(lang, run))}</p>`,
    `<p class="meta">${esc(t(lang, 'trace.head.seed', { seed: run.seed }))} · ${esc(run.runner)} · max_calls ${s.task.max_calls} · max_retries ${s.task.max_retries} · ${esc(t(lang, 'trace.head.stock', { stock }))} · ${esc(t(lang, 'trace.head.faults', { faults: describeFaults(s.faults) }))}</p>`,
    `<p class="verdict ${run.passed ? 'pass' : 'fail'}">${esc(verdictWord(lang, run))} · ${esc(figures(lang, run))}${run.crashes > 0 ? ` · ${esc(t(lang, 'trace.crashesRecovered', { n: run.crashes }))}` : ''}</p>`,
    `<p class="help">${say(lang, 'html.help.run', {}, { keys: KEYS, position: `<span data-position>${esc(t(lang, 'html.position', { i: 1, n: run.trace.length }))}</span>` })}</p>`,
    '</header>',
  ].join('\n');
}

function laneHead(lang: Lang): string {
  const cells = LANES.map((lane) => `<div class="l-${lane}">${esc(t(lang, LANE_TITLES[lane][0]))}<small>${esc(t(lang, LANE_TITLES[lane][1]))}</small></div>`);
  return `<div class="lanes lane-head" role="presentation"><div>${esc(t(lang, 'html.col.time'))}<small>${esc(t(lang, 'html.col.step'))}</small></div>${cells.join('')}</div>`;
}

export function when(lang: Lang, event: TraceEvent): string {
  const seq = event.type === 'saved' ? ` · ${t(lang, 'html.eventSeq', { seq: event.seq })}` : '';
  return `${event.t}ms · ${t(lang, 'html.step', { n: event.step })}${seq} · ${event.type === 'saved' ? event.label : event.type}`;
}

function timelineHtml(lang: Lang, run: RunResult): string {
  const lanes = laneHtml(lang, run);
  const timeline = timelineOf(run);
  const broke = new Map<number, Check[]>();
  for (const [check, at] of locateChecks(run, timeline)) broke.set(at, [...(broke.get(at) ?? []), check]);
  const rows = run.trace.map((event, i) => momentHtml(lang, event, i, lanes[i]!, timeline.moments[i]!, broke.get(i) ?? []));
  return [`<section class="timeline" aria-label="${esc(t(lang, 'html.aria.timeline'))}">`, laneHead(lang), '<ol class="moments">', ...rows, '</ol>', '</section>'].join('\n');
}

function workersTimelineHtml(lang: Lang, run: RunResult, columns: WorkerColumns, queue: QueueStates): string {
  const cells = workerCells(lang, run, columns);
  const timeline = timelineOf(run);
  const broke = new Map<number, Check[]>();
  for (const [check, at] of locateChecks(run, timeline)) broke.set(at, [...(broke.get(at) ?? []), check]);
  const rows = run.trace.map((event, i) => {
    const q = queue.at[i]!;
    const attrs = [...momentAttrs(lang, event, i, timeline.moments[i]!), `data-q="${q.state}"`, `data-q-fresh="${q.changed ? 1 : 0}"`];
    const row = [`<div class="t">${event.t}ms<small>${esc(t(lang, 'html.step', { n: event.step }))}</small></div>`, ...workerRowCells(event, cells[i]!, columns)];
    for (const check of broke.get(i) ?? []) row.push(`<div class="span broke">${esc(checkName(lang, check))}: ${esc(word(lang, check.message))}</div>`);
    return `<li class="moment lanes${event.type === 'crash' ? ' crash' : ''}" ${attrs.join(' ')}>${row.join('')}</li>`;
  });
  return [`<section class="timeline" aria-label="${esc(t(lang, 'html.aria.timeline'))}">`, workerLaneHead(lang, columns), '<ol class="moments">', ...rows, '</ol>', '</section>'].join('\n');
}

function momentAttrs(lang: Lang, event: TraceEvent, i: number, m: Moment): string[] {
  return [
    `id="m${i}"`,
    'data-moment',
    `data-db="${m.db}"`,
    `data-fresh="${m.dbChanged ? 1 : 0}"`,
    `data-log="${m.logSeq}"`,
    `data-rs="${m.runner}"`,
    ...(m.savedSeq !== undefined ? [`data-saved="${m.savedSeq}"`] : []),
    `data-when="${esc(when(lang, event))}"`,
    `data-type="${esc(event.type)}"`,
  ];
}

function momentHtml(lang: Lang, event: TraceEvent, i: number, lanes: LaneHtml, m: Moment, broke: Check[]): string {
  const attrs = [
    `id="m${i}"`,
    'data-moment',
    `data-db="${m.db}"`,
    `data-fresh="${m.dbChanged ? 1 : 0}"`,
    `data-log="${m.logSeq}"`,
    `data-rs="${m.runner}"`,
    ...(m.savedSeq !== undefined ? [`data-saved="${m.savedSeq}"`] : []),
    `data-when="${esc(when(lang, event))}"`,
    `data-type="${esc(event.type)}"`,
  ];
  const cells = [`<div class="t">${event.t}ms<small>${esc(t(lang, 'html.step', { n: event.step }))}</small></div>`];
  if (event.type === 'crash') {
    cells.push(`<div class="cut" role="separator">${[...lanes.runner, ...lanes.events].join('')}</div>`);
    for (const lane of ['wire', 'tool', 'db'] as const) cells.push(`<div class="l-${lane}">${lanes[lane].join('')}</div>`);
  } else {
    for (const lane of LANES) cells.push(`<div class="l-${lane}">${lanes[lane].join('')}</div>`);
  }
  for (const check of broke) cells.push(`<div class="span broke">${esc(checkName(lang, check))}: ${esc(word(lang, check.message))}</div>`);
  return `<li class="moment lanes${event.type === 'crash' ? ' crash' : ''}" ${attrs.join(' ')}>${cells.join('')}</li>`;
}

/** A check's expected or actual value: a message (what a runner threw, when faultlab made the error) in words, else the value. */
const shown = (lang: Lang, value: unknown): string => (isMessage(value) ? word(lang, value) : formatValue(value));

export function checkName(lang: Lang, check: Check): string {
  return check.kind === 'invariant' ? `${check.id.replace(/_.*/, '')} ${word(lang, check.title)}` : word(lang, check.title);
}

/** The checks with expected and actual; on a run's own page each failure links to the moment it broke. */
export function checksHtml(lang: Lang, run: RunResult, links = true, heading = t(lang, 'html.checks.heading', { verdict: verdictWord(lang, run) })): string {
  const at = links ? locateChecks(run, timelineOf(run)) : new Map<Check, number>();
  const rows = run.checks.map((check) => {
    const where = at.get(check);
    const link = where === undefined ? '' : `<a href="#m${where}" data-goto="m${where}">${esc(t(lang, 'html.step', { n: run.trace[where]?.step ?? 0 }))}</a>`;
    const mark = check.passed ? `<span class="pass">${esc(t(lang, 'html.checks.held'))}</span>` : `<span class="fail">${esc(t(lang, 'html.checks.failed'))}</span>`;
    const row = `<tr class="${check.passed ? 'held' : 'failed'}"><td>${mark}</td><td>${esc(checkName(lang, check))}</td><td>${esc(shown(lang, check.expected))}</td><td>${esc(shown(lang, check.actual))}</td>${links ? `<td>${link}</td>` : ''}</tr>`;
    return check.passed ? row : `${row}<tr class="failed"><td></td><td colspan="${links ? 4 : 3}">${esc(word(lang, check.message))}</td></tr>`;
  });
  return [
    `<section class="checks" aria-label="${esc(t(lang, 'html.aria.checks'))}">`,
    `<h2>${esc(heading)}</h2>`,
    `<table><thead><tr>${th(lang, 'html.checks.col.verdict', 'html.checks.col.check', 'html.checks.col.expected', 'html.checks.col.actual')}${links ? th(lang, 'html.checks.col.where') : ''}</tr></thead><tbody>`,
    ...rows,
    '</tbody></table>',
    '</section>',
  ].join('\n');
}

function panel(lang: Lang, run: RunResult, timeline: Timeline, queue: QueueStates | null = null): string {
  const key = traceKey(run.scenario.task.id);
  return [
    `<section class="then" aria-label="${esc(t(lang, 'html.aria.then'))}" aria-live="polite">`,
    `<h2>${say(lang, 'html.panel.at', {}, { now: '<span data-now></span>' })}</h2>`,
    '<div class="boxes">',
    `<div class="box events"><h3>${escText(t(lang, 'html.panel.events'))}</h3>${logTable(lang, run, key)}</div>`,
    `<div class="box runner"><h3>${esc(t(lang, queue !== null ? 'html.workers.panel.runner' : 'html.panel.runner'))}</h3>${timeline.runnerStates.map((st, i) => runnerBox(lang, st, i, key)).join('')}<div data-rs-state="-1" hidden><p class="down">${esc(t(lang, queue !== null ? 'html.workers.panel.noRunner' : 'html.panel.down'))}</p></div></div>`,
    `<div class="box db"><h3>${esc(t(lang, 'html.panel.db'))}</h3>${timeline.dbStates.map((db, i) => dbBox(lang, db, i, timeline.dbStates[i - 1], key)).join('')}</div>`,
    ...(queue !== null ? [queueBox(lang, queue)] : []),
    '</div>',
    '</section>',
  ].join('\n');
}

/** Said in words as well as in colour: this row was written at the chosen moment. */
const newMark = (lang: Lang): string => ` <span class="new-mark">${esc(t(lang, 'html.newHere'))}</span>`;

function logTable(lang: Lang, run: RunResult, key: KeyFormat): string {
  const NEW_MARK = newMark(lang);
  // Newest first: the row just written is the one to read, and it stays in view however long the log grows.
  const rows = [...run.log].reverse().map(
    (e) =>
      `<tr data-seq="${e.seq}"><td class="num">#${e.seq}</td><td>${esc(e.label)}${NEW_MARK}</td><td>${esc(e.state.pending ? `${e.state.pending.name} · ${t(lang, 'trace.attempt', { n: e.state.attempts })}` : '—')}</td><td class="num">${e.state.calls}</td></tr>`,
  );
  return `<table class="events-log"><thead><tr><th>#</th>${th(lang, 'html.log.label', 'html.log.pending', 'html.log.calls')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function runnerBox(lang: Lang, st: RunnerState, i: number, key: KeyFormat): string {
  const rows: Array<[string, string]> = [
    ['status', st.status],
    ['pending', st.pending ? formatAction(st.pending, key) : t(lang, 'html.state.nothing')],
    ['attempts', String(st.attempts)],
    ['calls', t(lang, 'html.state.calls', { calls: st.calls, max: st.task.max_calls })],
    ['observations', Object.keys(st.observations).sort().join(', ') || t(lang, 'html.state.none')],
    ...(st.result?.error ? [['error', toolText(lang, st.result.error)] as [string, string]] : []),
  ];
  return `<div data-rs-state="${i}"${i === 0 ? '' : ' hidden'}><table class="runner-state"><tbody>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</tbody></table></div>`;
}

function dbBox(lang: Lang, db: ToolSnapshot, i: number, before: ToolSnapshot | undefined, key: KeyFormat): string {
  const NEW_MARK = newMark(lang);
  const items = db.items.map((row) => {
    const old = before?.items.find((b) => b.item_id === row.item_id);
    const changed = before !== undefined && (old === undefined || old.available !== row.available || old.version !== row.version);
    return `<tr${changed ? ' class="changed"' : ''}><td>${esc(row.item_id)}</td><td class="num">${row.available}</td><td class="num">v${row.version}${NEW_MARK}</td></tr>`;
  });
  const ledger = db.ledger.map((row) => {
    const isNew = before !== undefined && !before.ledger.some((b) => b.key === row.key);
    const receipt = (row.result as { reservation_id?: unknown } | null)?.reservation_id;
    return `<tr${isNew ? ' class="changed"' : ''} data-key="${esc(row.key)}"><td class="mono" title="${esc(row.key)}">${esc(key(row.key))}</td><td>${esc(row.item_id)}</td><td class="num">${row.qty}</td><td class="mono">${esc(receipt ?? '—')}${NEW_MARK}</td></tr>`;
  });
  return [
    `<div data-db-state="${i}"${i === 0 ? '' : ' hidden'}>`,
    `<table class="items"><thead><tr>${th(lang, 'html.db.item', 'html.db.available', 'html.db.version')}</tr></thead><tbody>${items.join('')}</tbody></table>`,
    `<table class="ledger"><thead><tr>${th(lang, 'html.db.key', 'html.db.item', 'html.db.qty', 'html.db.receipt')}</tr></thead><tbody>${ledger.length > 0 ? ledger.join('') : `<tr class="empty"><td colspan="4">${esc(t(lang, 'html.db.noRow'))}</td></tr>`}</tbody></table>`,
    '</div>',
  ].join('');
}
