import { Chalk, type ChalkInstance } from 'chalk';
import { describeEvent, seconds, type Tone } from './describe.js';
import { renderHerd } from './renderHerd.js';
import type { PillarRun } from './types.js';

/**
 * A PillarRun as text: the title and explanation, the trace (virtual time on every line), the figures,
 * the checks, the verdict. With color false it is plain text, byte-identical for the same run.
 */

const WIDTH = 100;

export function renderPillarRun(run: PillarRun, style: { color: boolean }): string {
  const c = new Chalk({ level: style.color ? 1 : 0 });
  const out: string[] = [];
  out.push(c.bold(run.title));
  for (const line of wrap(run.explain, WIDTH - 2)) out.push(`  ${c.dim(line)}`);
  out.push('');

  const lines = run.events.flatMap((e) => {
    const d = describeEvent(e);
    return d ? [{ atMs: e.atMs, ...d }] : [];
  });
  const timeWidth = Math.max(0, ...lines.map((l) => seconds(l.atMs).length));
  out.push(c.bold('trace (virtual time)'));
  for (const l of lines) out.push(`  t=${seconds(l.atMs).padStart(timeWidth)}  ${tone(c, l.tone, l.text)}`);
  out.push('');

  if ('histograms' in run.figures) {
    out.push(...renderHerd(run.figures, c), '');
  }

  out.push(c.bold('figures'));
  const figureLines = figureRows(run.figures).filter(([k]) => !k.startsWith('histograms') && !k.startsWith('results'));
  const keyWidth = Math.max(0, ...figureLines.map(([k]) => k.length));
  for (const [k, v] of figureLines) out.push(`  ${k.padEnd(keyWidth)}  ${v}`);
  out.push('');

  out.push(c.bold('checks'));
  for (const check of run.checks) out.push(`  ${check.passed ? c.green('✔') : c.red('✘')} ${check.message}`);
  const failed = run.checks.filter((x) => !x.passed).length;
  out.push(
    run.passed
      ? c.green(`PASS  all ${run.checks.length} checks held (seed ${run.seed})`)
      : c.red(`FAIL  ${failed} of ${run.checks.length} checks failed (seed ${run.seed})`),
  );
  return out.join('\n') + '\n';
}

function tone(c: ChalkInstance, t: Tone, text: string): string {
  switch (t) {
    case 'dim':
      return c.dim(text);
    case 'good':
      return c.green(text);
    case 'bad':
      return c.red(text);
    case 'warn':
      return c.yellow(text);
    case 'state':
      return c.magenta.bold(text);
    case 'step':
      return c.cyan(text);
    case 'plain':
      return text;
  }
}

const json = (value: unknown): string => JSON.stringify(value) ?? String(value);

/**
 * Figures as `path  value` rows, two levels deep: a scalar or a list of scalars on one row, a list of
 * objects one row per item, a mapping one row per entry (its values as compact JSON).
 */
function figureRows(figures: Record<string, unknown>): [string, string][] {
  const scalar = (v: unknown): boolean => v === null || typeof v !== 'object';
  return Object.entries(figures).flatMap(([name, value]): [string, string][] => {
    if (scalar(value) || (Array.isArray(value) && value.every(scalar))) return [[name, json(value)]];
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return [[name, json(value)]];
    return entries.map(([k, v]) => [`${name}.${k}`, json(v)]);
  });
}

export function wrap(text: string, width: number): string[] {
  const words = text.trim().split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
