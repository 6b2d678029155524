import { displayWidth, flow, formatValue, pad, padStart, wrap } from '../render/format.js';
import { t, type Lang } from '../render/words/index.js';
import { DEFAULT_WIDTH, renderChecks, rule, type RenderOptions } from '../render/renderText.js';
import type { Style } from '../render/style.js';
import { wordsOf } from '../scenario/words.js';
import { formatMs, paint } from '../render/tone.js';
import { describeLabEvent } from './describeLabEvent.js';
import { renderHerd } from './renderHerd.js';
import type { LabRun } from './types.js';

/**
 * A LabRun as text, in the look of a runner's run (src/render/renderText.ts): the same `━━` title rule,
 * the explanation, the trace with the virtual time of every event in its column, then the lab's figures,
 * the checks as every run prints them (✔/✘, expected · actual) and the verdict. Colour comes only from
 * the Style the CLI chose; with a plain Style the text is byte-identical for the same run.
 */
export function renderLabRun(run: LabRun, style: Style, options: RenderOptions): string {
  const { c } = style;
  const { lang } = options;
  const width = options.width ?? DEFAULT_WIDTH;
  const { title, explain } = wordsOf(run, lang);
  const out: string[] = [rule(`${options.position ? `${options.position} ` : ''}${run.id} ━ ${title}`, style, width)];
  out.push(c.dim(wrap(explain, width, '  ')));
  out.push(wrap(t(lang, 'lab.head', { seed: run.seed, experiment: run.experiment }), width, '  '));
  out.push('');

  const lines = run.events.flatMap((e) => {
    const line = describeLabEvent(lang, e);
    return line ? [{ at: formatMs(e.atMs), ...line }] : [];
  });
  const timeWidth = Math.max(8, ...lines.map((l) => l.at.length));
  out.push(c.dim(`${padStart(t(lang, 'trace.col.t'), timeWidth)}  ${t(lang, 'trace.col.event')}`));
  for (const l of lines) {
    out.push(...flow([[l.text, (x: string) => paint(style, l.tone, x)]], { width, indent: `${padStart(l.at, timeWidth)}  `, hang: ' '.repeat(timeWidth + 4) }));
  }

  if ('histograms' in run.figures) out.push('', ...renderHerd(lang, run.figures, style));

  // The herd's results and histograms have their own section above.
  const herd = 'histograms' in run.figures;
  return renderEnding(lang, run, figureRows(run.figures).filter(([k]) => !herd || !(k.startsWith('histograms') || k.startsWith('results'))), out, style, width);
}

/** A lab's or a race's end, after its story: its figures as rows, its checks, and its verdict. */
export function renderEnding(lang: Lang, run: Pick<LabRun, 'id' | 'checks' | 'passed'>, rows: [string, string][], out: string[], style: Style, width: number): string {
  const { c } = style;
  out.push('', c.bold(`  ${t(lang, 'lab.figures')}`));
  const keyWidth = Math.max(0, ...rows.map(([k]) => displayWidth(k)));
  for (const [k, v] of rows) out.push(...flow([[v, null]], { width, indent: `    ${pad(k, keyWidth)}  `, hang: ' '.repeat(keyWidth + 8) }));
  out.push(renderChecks(lang, run.checks, style, width));
  const failed = run.checks.filter((x) => !x.passed).length;
  const verdict = run.passed
    ? `  ${t(lang, 'lab.verdict.pass', { word: c.green.bold(t(lang, 'trace.verdict.pass')), id: run.id, n: run.checks.length })}`
    : `  ${t(lang, 'lab.verdict.fail', { word: c.red.bold(t(lang, 'trace.verdict.fail')), id: run.id, failed, n: run.checks.length })}`;
  return `${out.join('\n')}\n${verdict}\n`;
}

/**
 * Figures as `path  value` rows, two levels deep: a scalar or a list of scalars on one row, a list of
 * objects one row per item, a mapping one row per entry (its values as compact JSON).
 */
export function figureRows(figures: Record<string, unknown>): [string, string][] {
  const scalar = (v: unknown): boolean => v === null || typeof v !== 'object';
  const json = (v: unknown): string => JSON.stringify(v) ?? formatValue(v);
  return Object.entries(figures).flatMap(([name, value]): [string, string][] => {
    if (scalar(value) || (Array.isArray(value) && value.every(scalar))) return [[name, json(value)]];
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return [[name, json(value)]];
    return entries.map(([k, v]) => [`${name}.${k}`, json(v)]);
  });
}
