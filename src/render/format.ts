/** Small, pure formatters shared by the renderers: actions, values, database changes. */
import { shortKey } from '../core/key.js';
import type { SnapshotDiff } from '../inventory/snapshot.js';
import type { RunResult } from '../check/RunResult.js';
import type { ToolAction } from '../runner/state.js';


export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

/** Arguments in the order a reader expects them (the key last), whatever order they were built in. */
const ARG_ORDER = ['query', 'doc_id', 'item', 'qty', 'expected_version', 'key'];

function argRank(name: string): number {
  const i = ARG_ORDER.indexOf(name);
  return i === -1 ? ARG_ORDER.length - 1 : i; // unknown args go just before the key
}

export function formatArgs(args: Record<string, unknown>): string {
  return Object.entries(args)
    .sort(([a], [b]) => argRank(a) - argRank(b) || a.localeCompare(b))
    .map(([name, value]) => `${name}=${name === 'key' ? shortKey(value) : formatValue(value)}`)
    .join(' ');
}

export function formatAction(action: ToolAction | null | undefined): string {
  if (action == null) return '';
  return `${action.name}(${formatArgs(action.args ?? {})})`;
}

/** What a tool's reply means, in a few words. */
export function formatReply(tool: string, value: unknown): string {
  if (value === null || typeof value !== 'object') return formatValue(value);
  const v = value as Record<string, unknown>;
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  if (tool === 'reserve' && typeof v.reservation_id === 'string') {
    return `receipt ${v.reservation_id}: ${formatValue(v.item)} ×${formatValue(v.qty)}, available_after ${formatValue(v.available_after)}, version_after ${formatValue(v.version_after)}`;
  }
  if (tool === 'get_stock' && 'available' in v) return `${formatValue(v.item)}: ${formatValue(v.available)} available, version ${formatValue(v.version)}`;
  if (tool === 'read_doc' && 'title' in v) return `doc ${formatValue(v.doc_id)} "${formatValue(v.title)}"`;
  return JSON.stringify(value);
}

/** The stock a run's summary shows: the items its scenario expects figures for, or else the camera. */
export function shownStock(run: RunResult): Array<{ item: string; available: number | undefined }> {
  const items = Object.keys(run.scenario.expect.stock ?? {});
  return (items.length > 0 ? items : ['camera']).map((item) => ({ item, available: run.db.items.find((row) => row.item_id === item)?.available }));
}

export function formatDiff(diff: SnapshotDiff): string {
  const parts: string[] = [];
  for (const s of diff.stock) {
    parts.push(`stock ${s.item} ${s.available[0]}→${s.available[1]} (v${s.version[0]}→v${s.version[1]})`);
  }
  if (diff.ledgerAdded.length > 0) {
    const ids = diff.ledgerAdded.map((row) => (row.result as { reservation_id?: string }).reservation_id ?? shortKey(row.key));
    parts.push(`ledger +${diff.ledgerAdded.length} (${ids.join(', ')})`);
  }
  if (diff.ledgerRemoved.length > 0) parts.push(`ledger −${diff.ledgerRemoved.length}`);
  return parts.length > 0 ? parts.join(' · ') : 'no change';
}

export function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

export function padStart(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

/** Wrap prose to a width, every line prefixed by `indent`. */
export function wrap(text: string, width: number, indent = ''): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(indent + line);
  return lines.join('\n');
}
