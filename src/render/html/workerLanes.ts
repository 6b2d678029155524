/**
 * The timeline of many workers (docs/spec.md §10–12): a lane per worker and one for the sweeper, then the
 * queue's table and the tool, so that a reader sees who moved at each moment. The narration's lines (the same
 * words as the terminal) go in the lane of the actor whose event it is; what only a picture needs is added at
 * the moment it happens — the fencing token on every write, a refused write (STALE_FENCE) as a stop, a lease's
 * expiry as an alarm in its holder's lane and on the queue's row. A run of one runner never comes here: its page
 * is exactly what it was.
 */
import type { RunResult } from '../../check/RunResult.js';
import type { TaskView, TraceEvent } from '../../sim/events.js';
import { narrate, type Line } from '../narrate.js';
import { taskView } from '../narrateWorkers.js';
import { esc } from './escape.js';
import { lineHtml } from './lanes.js';
import { formatAction, traceKey } from '../format.js';
import { t, type Lang } from '../words/index.js';

/** The columns after the time: each actor's, then the queue's table, then the tool and its database. */
export interface WorkerColumns {
  actors: string[];
}

export function columnsOf(run: RunResult): WorkerColumns {
  const names = run.workers!.names;
  const actors = [...names, ...(run.trace.some((e) => e.worker !== undefined && !names.includes(e.worker)) ? ['sweeper'] : [])];
  return { actors };
}

/** The grid of a many-worker page: its own column count, in a style block of its own (one runner's style is untouched). */
export function workerStyle(columns: WorkerColumns): string {
  const n = columns.actors.length;
  const lanes = columns.actors.map((_, i) => `.wl-${i} { grid-column: ${i + 2}; border-right: ${i === n - 1 ? '3px solid var(--ink)' : '1px dashed var(--rule)'}; }`).join('\n');
  return `
.workers .lanes { grid-template-columns: 5.2rem repeat(${n}, minmax(0,1.5fr)) minmax(0,1.2fr) minmax(0,1.4fr); }
${lanes}
.wl-queue { grid-column: ${n + 2}; border-right: 1px dashed var(--rule); background: rgba(0,79,116,.04); }
.wl-tool { grid-column: ${n + 3}; background: rgba(0,79,116,.04); }
.workers .cut { grid-column: auto !important; }
.token { display: inline-block; font-family: var(--mono); font-size: .8rem; font-weight: bold; border: 2px solid var(--db); color: var(--db); border-radius: .8rem; padding: 0 .45rem; margin: .1rem 0; white-space: nowrap; }
.refused { display: block; font-weight: bold; color: var(--paper); background: var(--bad); border-radius: .2rem; padding: .1rem .4rem; margin: .15rem 0; }
.refused::before { content: "✘ "; }
.expiry { display: block; font-weight: bold; color: var(--warn); border: 3px double var(--warn); background: #fff8e6; padding: .1rem .4rem; margin: .15rem 0; }
.expiry::before { content: "◔ "; }
.zombie { display: block; font-weight: bold; color: var(--fault); border: 2px dashed var(--fault); padding: .1rem .4rem; margin: .15rem 0; }
.workers .boxes { grid-template-columns: minmax(0,1.1fr) minmax(0,1fr) minmax(0,1.1fr) minmax(0,1fr); }
`;
}

/** What each moment puts in each column: the actors' lanes (by name), `queue` and `tool`. */
export type WorkerCells = Record<string, string[]>;

export function workerCells(lang: Lang, run: RunResult, columns: WorkerColumns): WorkerCells[] {
  const cells: WorkerCells[] = run.trace.map(() => ({ queue: [], tool: [], ...Object.fromEntries(columns.actors.map((a) => [a, []])) }));
  for (const line of narrate(lang, run)) {
    const event = run.trace[line.event]!;
    cells[line.event]![columnOf(line, event, columns)]!.push(workerLineHtml(lang, line, event));
  }
  const held = new Map<string, number>();
  run.trace.forEach((event, i) => marks(lang, event, cells[i]!, run, held));
  return cells;
}

/** The tool's lines go to the tool; the queue's table to the queue; everything else to the actor whose event it is. */
function columnOf(line: Line, event: TraceEvent, columns: WorkerColumns): string {
  if (event.type === 'tasks') return 'queue';
  if (line.lane === 'tool' || line.lane === 'db') return 'tool';
  const actor = line.worker ?? event.worker;
  return actor !== undefined && columns.actors.includes(actor) ? actor : 'tool';
}

/** A narrated line as the one-runner page draws it; a saved line without its token, which gets a mark of its own (below). */
function workerLineHtml(lang: Lang, line: Line, event: TraceEvent): string {
  if (line.saved === undefined || event.type !== 'saved' || event.token === undefined) return lineHtml(lang, line, event);
  const said = t(lang, 'workers.savedToken', { token: event.token });
  return lineHtml(lang, { ...line, parts: line.parts.filter(([text]) => text !== said) }, event);
}

const token = (lang: Lang, n: number): string => `<span class="token" title="${esc(t(lang, 'html.workers.token.title'))}">${esc(t(lang, 'html.workers.token', { token: n }))}</span>`;

/** What only the picture adds, at the moment it happens. */
function marks(lang: Lang, event: TraceEvent, cells: WorkerCells, run: RunResult, held: Map<string, number>): void {
  const lane = event.worker !== undefined && cells[event.worker] !== undefined ? cells[event.worker]! : null;
  switch (event.type) {
    case 'request': {
      // The request going out on the wire, as the one-runner page shows it: who sends what, its call and attempt.
      if (event.by !== 'runner' || event.delivery === 2) break;
      const count = [event.call !== undefined ? t(lang, 'html.call', { n: event.call }) : '', event.attempt !== undefined ? t(lang, 'trace.attempt', { n: event.attempt }) : ''].filter(Boolean).join(' · ');
      lane?.unshift(`<span class="line tone-plain">→ ${esc(formatAction(event.action, traceKey(run.scenario.task.id)))}${count ? ` <span class="calls">${esc(count)}</span>` : ''}</span>`);
      cells.tool!.push(`<span class="line tone-dim">${esc(t(lang, 'html.runs', { tool: event.action.name }))}</span>`);
      break;
    }
    case 'claim':
      // The grant the worker holds from now on: the token its requests carry to the store.
      if (event.granted !== null && event.worker !== undefined) held.set(event.worker, event.granted.token);
      break;
    case 'saved':
      if (event.token !== undefined) lane?.push(token(lang, event.token));
      break;
    case 'holder':
      if (event.ok) lane?.push(token(lang, event.token));
      else lane?.push(`<span class="refused">${esc(t(lang, 'html.workers.refused', { what: event.op, token: event.token }))}</span>`);
      break;
    case 'save_refused':
      lane?.push(`<span class="refused">${esc(t(lang, 'html.workers.refused', { what: event.label, token: event.token }))}</span>`);
      break;
    case 'reply':
      if (!event.outcome.ok && event.outcome.error.code === 'STALE_FENCE') lane?.push(`<span class="refused">${esc(t(lang, 'html.workers.refused', { what: event.tool, token: held.get(event.worker ?? '') ?? '?' }))}</span>`);
      break;
    case 'db': {
      // The receipt's token: the grant its effect and ledger row were committed under.
      const row = event.committed && event.diff.ledgerAdded.length > 0 ? run.workers?.tokens.find((r) => event.diff.ledgerAdded.some((l) => l.key === r.key)) : undefined;
      if (row !== undefined) cells.tool!.push(token(lang, row.token));
      break;
    }
    case 'lease_expired': {
      const said = t(lang, 'html.workers.expired', { owner: event.owner, token: event.token, at: event.at });
      lane?.push(`<span class="expiry">${esc(said)}</span>`);
      cells.queue!.push(`<span class="expiry">${esc(said)}</span>`);
      break;
    }
    case 'lease_lost':
      lane?.push(`<span class="zombie">${esc(t(lang, 'html.workers.zombie', { token: event.token }))}</span>`);
      break;
  }
}

/** The queue's row as the harness saw it committed, moment by moment: the distinct rows, and each moment's. */
export interface QueueStates {
  /** Every distinct view of the task's rows, in order; index 0 the table at the start. */
  states: Array<Array<[string, TaskView | null]>>;
  /** By trace index: the index into `states` right after that moment, and whether the moment changed it. */
  at: Array<{ state: number; changed: boolean }>;
}

export function queueStates(run: RunResult): QueueStates {
  const rows = new Map<string, TaskView | null>(run.scenario.workers === undefined ? [] : [[run.scenario.task.id, { state: 'queued', owner: null, token: 0, leaseUntil: null, finishedToken: null }]]);
  const states = [[...rows]];
  const at = run.trace.map((event) => {
    if (event.type !== 'tasks') return { state: states.length - 1, changed: false };
    for (const change of event.changes) rows.set(change.task, change.to);
    states.push([...rows]);
    return { state: states.length - 1, changed: true };
  });
  return { states, at };
}

/** The panel's box of the queue's table, one state per distinct view (shown as the chosen moment's). */
export function queueBox(lang: Lang, queue: QueueStates): string {
  const boxes = queue.states.map((rows, i) => {
    const body = rows.map(([task, view]) => `<tr><td class="mono">${esc(task)}</td><td>${esc(taskView(lang, view))}</td></tr>`).join('');
    return `<div data-q-state="${i}"${i === 0 ? '' : ' hidden'}><table><thead><tr><th>${esc(t(lang, 'html.workers.queue.task'))}</th><th>${esc(t(lang, 'html.workers.queue.row'))}</th></tr></thead><tbody>${body}</tbody></table></div>`;
  });
  return `<div class="box queue"><h3>${esc(t(lang, 'html.workers.panel.queue'))}</h3>${boxes.join('')}</div>`;
}

/** The stepping script's addition for a many-worker page: the queue's box follows the chosen moment. */
export const QUEUE_SCRIPT = `
(() => {
  const all = (selector) => Array.from(document.querySelectorAll(selector));
  const show = (m) => all('[data-q-state]').forEach((el) => { el.hidden = el.dataset.qState !== m.dataset.q; el.classList.toggle('fresh', m.dataset.qFresh === '1'); });
  const moments = all('[data-moment]');
  new MutationObserver(() => { const m = document.querySelector('.moment.current'); if (m) show(m); }).observe(document.querySelector('ol.moments'), { subtree: true, attributes: true, attributeFilter: ['class'] });
  const m = document.querySelector('.moment.current') || moments[0];
  if (m) show(m);
})();
`;

/** The lane heads of a many-worker page: each actor, the queue, the tool. */
export function workerLaneHead(lang: Lang, columns: WorkerColumns): string {
  const actor = (name: string, i: number) =>
    `<div class="wl-${i}">${esc(name)}<small>${esc(t(lang, name === 'sweeper' ? 'html.workers.lane.sweeper' : 'html.workers.lane.worker'))}</small></div>`;
  return [
    `<div class="lanes lane-head" role="presentation"><div>${esc(t(lang, 'html.col.time'))}<small>${esc(t(lang, 'html.col.step'))}</small></div>`,
    ...columns.actors.map(actor),
    `<div class="wl-queue">${esc(t(lang, 'html.workers.lane.queue'))}<small>${esc(t(lang, 'html.workers.lane.queue.holds'))}</small></div>`,
    `<div class="wl-tool">${esc(t(lang, 'html.workers.lane.tool'))}<small>${esc(t(lang, 'html.workers.lane.tool.holds'))}</small></div>`,
    '</div>',
  ].join('');
}

/** One moment's cells in a many-worker row: the crash's cut stays in the crashed worker's lane. */
export function workerRowCells(event: TraceEvent, cells: WorkerCells, columns: WorkerColumns): string[] {
  const out = columns.actors.map((actor, i) => {
    const inner = cells[actor]!.join('');
    const cut = event.type === 'crash' && event.worker === actor;
    return `<div class="wl-${i}${cut ? ' cut' : ''}"${cut ? ' role="separator"' : ''}>${inner}</div>`;
  });
  out.push(`<div class="wl-queue">${cells.queue!.join('')}</div>`, `<div class="wl-tool">${cells.tool!.join('')}</div>`);
  return out;
}
