import type { Style } from '../render/style.js';
import { formatMs } from '../render/tone.js';
import { displayWidth, pad, padStart } from '../render/format.js';
import { t, type Lang } from '../render/words/index.js';

/**
 * The herd's own section: a comparison table (one row per jitter strategy) and an ASCII histogram of
 * retry times, one column per strategy, so the clumps of `none` and the spread of the others show side
 * by side.
 */

interface Row {
  total_attempts: number;
  drain_ms: number;
  succeeded: number;
  gave_up: number;
  peak_per_slot: number;
}

const BAR = 12;

export function renderHerd(lang: Lang, figures: Record<string, unknown>, style: Style): string[] {
  const { c } = style;
  const results = figures.results as Record<string, Row>;
  const histograms = figures.histograms as Record<string, number[]>;
  const binMs = figures.histogram_bin_ms as number;
  const strategies = Object.keys(results);
  const out: string[] = [c.bold(`  ${t(lang, 'lab.herd.comparison')}`)];
  const head = [t(lang, 'lab.herd.col.strategy'), t(lang, 'lab.herd.col.attempts'), t(lang, 'lab.herd.col.drained'), t(lang, 'lab.herd.col.served'), t(lang, 'lab.herd.col.gaveUp'), t(lang, 'lab.herd.col.peak')];
  const rows = strategies.map((s) => {
    const r = results[s] as Row;
    return [s, String(r.total_attempts), formatMs(r.drain_ms), String(r.succeeded), String(r.gave_up), String(r.peak_per_slot)];
  });
  const widths = head.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))));
  const fmt = (cells: string[]): string => cells.map((cell, i) => (i === 0 ? pad(cell, widths[i] ?? 0) : padStart(cell, widths[i] ?? 0))).join('   ');
  out.push(`    ${c.bold(fmt(head))}`);
  for (const r of rows) out.push(`    ${fmt(r)}`);
  out.push(`    ${t(lang, 'lab.herd.byAttempts', { ranking: (figures.ranking_by_attempts as string[]).join(' < ') })}`);
  out.push(`    ${t(lang, 'lab.herd.byDrain', { ranking: (figures.ranking_by_drain_ms as string[]).join(' < ') })}`);
  out.push('');

  const bins = Math.max(0, ...strategies.map((s) => (histograms[s] ?? []).length));
  // the scale comes from the regular bins; the last bin (everything later) may overflow it
  const max = Math.max(1, ...strategies.flatMap((s) => (histograms[s] ?? []).slice(0, bins - 1)));
  const per = Math.ceil(max / BAR);
  const colWidth = BAR + 6;
  out.push(c.bold(`  ${t(lang, 'lab.herd.histogram', { bin: binMs, per })}`));
  const label = (k: number): string => (k === bins - 1 ? `${formatMs(k * binMs)}+` : formatMs(k * binMs));
  const labelWidth = Math.max(...Array.from({ length: bins }, (_, k) => label(k).length));
  out.push(`    ${''.padEnd(labelWidth)}  ${strategies.map((s) => s.padEnd(colWidth)).join('')}`.trimEnd());
  for (let k = 0; k < bins; k += 1) {
    const cells = strategies.map((s) => {
      const n = histograms[s]?.[k] ?? 0;
      const width = Math.ceil(n / per);
      const bar = width > BAR ? `${'#'.repeat(BAR)}+` : '#'.repeat(width);
      return (n === 0 ? '' : `${bar} ${n}`).padEnd(colWidth);
    });
    out.push(`    ${label(k).padStart(labelWidth)}  ${cells.join('')}`.trimEnd());
  }
  return out;
}
