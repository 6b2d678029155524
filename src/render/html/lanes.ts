/**
 * What each moment puts in each lane, as HTML: the narration's lines (narrate.ts — the same words as the
 * terminal) in the lane they belong to, plus what only a picture needs — the write into the runner's event
 * store, the request going out on the wire, the definite/indefinite mark as a word and a shape, the truth the
 * runner cannot see. One more event kind is one more entry in EXTRAS (or none: its narrated lines suffice).
 */
import type { RunResult } from '../../check/RunResult.js';
import type { TraceEvent, TraceEventOf, TraceEventType } from '../../sim/events.js';
import { formatAction, GLUE, traceKey, type KeyFormat } from '../format.js';
import { narrate, type Lane, type Line, type Part } from '../narrate.js';
import { esc } from './escape.js';
import { t, type Lang } from '../words/index.js';

export const LANES: readonly Lane[] = ['events', 'runner', 'wire', 'tool', 'db'];

export type LaneHtml = Record<Lane, string[]>;

export function parts(list: readonly Part[]): string {
  return list.map(([text, tone]) => `<span class="tone-${tone}">${esc(text.replaceAll(GLUE, ' '))}</span>`).join(' ');
}

type Extra<E> = (lang: Lang, event: E, lanes: LaneHtml, key: KeyFormat) => void;

const EXTRAS: { [K in TraceEventType]?: Extra<TraceEventOf<K>> } = {
  saved: (_lang, event, lanes) => {
    lanes.events.unshift(`<span class="line write">#${event.seq} ${esc(event.label)}</span>`);
  },
  request: (lang, event, lanes, key) => {
    if (event.by !== 'runner' || event.delivery === 2) return;
    const count = [event.call !== undefined ? t(lang, 'html.call', { n: event.call }) : '', event.attempt !== undefined ? t(lang, 'trace.attempt', { n: event.attempt }) : ''].filter(Boolean).join(' · ');
    lanes.wire.unshift(`<span class="line tone-plain">→ ${esc(formatAction(event.action, key))}${count ? ` <span class="calls">${esc(count)}</span>` : ''}</span>`);
    lanes.tool.push(`<span class="line tone-dim">${esc(t(lang, 'html.runs', { tool: event.action.name }))}</span>`);
  },
  finished: (lang, event, lanes) => {
    if (lanes.runner.length === 0) lanes.runner.push(`<span class="line tone-dim">${esc(t(lang, 'html.runEnds', { status: event.status, steps: event.steps }))}</span>`);
  },
  recovered: (lang, event, lanes) => {
    lanes.events.push(`<span class="line tone-ok">${esc(event.seq === null ? t(lang, 'html.readBackEmpty') : t(lang, 'html.readBack', { seq: event.seq }))}</span>`);
  },
};

/** The lanes of every moment of a run, by trace index. */
export function laneHtml(lang: Lang, run: RunResult): LaneHtml[] {
  const key = traceKey(run.scenario.task.id);
  const byEvent: LaneHtml[] = run.trace.map(() => ({ events: [], runner: [], wire: [], tool: [], db: [] }));
  for (const line of narrate(lang, run)) byEvent[line.event]![line.lane].push(lineHtml(lang, line, run.trace[line.event]!));
  run.trace.forEach((event, i) => {
    const extra = (EXTRAS as Record<string, Extra<TraceEvent> | undefined>)[event.type];
    extra?.(lang, event, byEvent[i]!, key);
  });
  return byEvent;
}

/** One narrated line as HTML (the many-worker lanes use it too). */
export function lineHtml(lang: Lang, line: Line, event: TraceEvent): string {
  if (line.saved) {
    const s = line.saved;
    return `<span class="line"><b class="label tone-${s.labelTone}">${esc(s.label)}</b>${parts(line.parts)} <span class="calls">${esc(t(lang, 'trace.figure.calls', { n: s.calls }))}</span></span>`;
  }
  const cls = line.depth ? 'line deep' : 'line';
  if (event.type === 'reply' && !event.outcome.ok && line.lane === 'wire') {
    const certainty = event.outcome.error.certainty;
    const word = t(lang, certainty === 'indefinite' ? 'html.indefinite' : 'html.definite');
    const title = t(lang, certainty === 'indefinite' ? 'html.indefinite.title' : 'html.definite.title');
    return `<span class="${cls}"><span class="certainty ${certainty}" title="${esc(title)}">${esc(word)}</span>${parts(line.parts)}</span>`;
  }
  if (line.truth) return `<span class="${cls} truth">${parts(line.parts)}</span>`;
  if (event.type === 'recovered') return `<span class="${cls} recovered">${parts(line.parts)}</span>`;
  return `<span class="${cls}">${parts(line.parts)}</span>`;
}
