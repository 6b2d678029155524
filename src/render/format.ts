/** Small, pure formatters shared by the renderers: actions, values, database changes. */
import { CONTENT_HASH_HEX_CHARS, SHORT_KEY_HEX_CHARS, shortKey } from '../core/key.js';
import type { SnapshotDiff } from '../inventory/snapshot.js';
import { canonicalJson } from '../core/canonical.js';
import type { RunResult } from '../check/RunResult.js';
import type { ToolAction } from '../runner/state.js';
import { t, type Lang } from './words/index.js';


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

/** How a key is shown inside an action: `shortKey` unless a renderer has a shorter form for its context. */
export type KeyFormat = (key: unknown) => string;

export function formatArgs(args: Record<string, unknown>, key: KeyFormat = shortKey): string {
  return Object.entries(args)
    .sort(([a], [b]) => argRank(a) - argRank(b) || a.localeCompare(b))
    // An object argument (a reserve's outbox message) in canonical JSON: the same action reads the same, whoever built it.
    .map(([name, value]) => `${name}=${name === 'key' ? key(value) : typeof value === 'object' && value !== null ? canonicalJson(value) : formatValue(value)}`)
    .join(' ');
}

export function formatAction(action: ToolAction | null | undefined, key: KeyFormat = shortKey): string {
  if (action == null) return '';
  return `${action.name}(${formatArgs(action.args ?? {}, key)})`;
}

const DERIVED_KEY = new RegExp(`^([^:]+):[^:]+:([0-9a-f]{${CONTENT_HASH_HEX_CHARS}})$`);

/**
 * A key inside a trace line of task `taskId`: the task's own derived key shrinks to the first hex
 * characters of its hash (`2872d1b4…`) — the full key is printed once, where it is made, and the header
 * names the task. Any other key (another client's, one a runner invented, one the policy gave) keeps the
 * short form that shows its owner, so a stranger key still stands out.
 */
export function traceKey(taskId: string): KeyFormat {
  return (key) => {
    const m = typeof key === 'string' ? DERIVED_KEY.exec(key) : null;
    return m !== null && m[1] === taskId ? `${m[2]!.slice(0, SHORT_KEY_HEX_CHARS)}…` : shortKey(key);
  };
}

/** What a tool's reply means, in a few words. */
export function formatReply(lang: Lang, tool: string, value: unknown): string {
  if (value === null || typeof value !== 'object') return formatValue(value);
  const v = value as Record<string, unknown>;
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  if (tool === 'reserve' && typeof v.reservation_id === 'string') {
    const { reservation_id: id, item, qty, available_after: available, version_after: version } = v;
    return t(lang, 'trace.reply.receipt', { id: formatValue(id), item: formatValue(item), qty: formatValue(qty), available: formatValue(available), version: formatValue(version) });
  }
  if (tool === 'get_stock' && 'available' in v) return t(lang, 'trace.reply.stock', { item: formatValue(v.item), available: formatValue(v.available), version: formatValue(v.version) });
  if (tool === 'read_doc' && 'title' in v) return t(lang, 'trace.reply.doc', { id: formatValue(v.doc_id), title: formatValue(v.title) });
  const limits = formatLimitsReply(lang, tool, v);
  if (limits !== null) return limits;
  return JSON.stringify(value);
}

/** The replies of docs/spec.md §13–§14: a release's receipt, a task's end, a charge, a status query. */
function formatLimitsReply(lang: Lang, tool: string, v: Record<string, unknown>): string | null {
  const f = formatValue;
  if (tool === 'release' && typeof v.release_id === 'string') {
    return t(lang, 'limits.reply.release', { id: v.release_id, of: f(v.of), item: f(v.item), qty: f(v.qty), available: f(v.available_after), version: f(v.version_after) });
  }
  if (tool === 'close_task' && 'finished_at_ms' in v) return t(lang, 'limits.reply.closed', { task: f(v.task), ms: f(v.finished_at_ms) });
  if (tool === 'charge' && v.status === 'charged') return t(lang, 'limits.reply.charged', { ref: f(v.ref), id: f(v.charge_id), amount: f(v.amount) });
  if (tool === 'charge' && v.status === 'declined') return t(lang, 'limits.reply.declined', { ref: f(v.ref), amount: f(v.amount), reason: f(v.reason) });
  if (tool === 'charge_status' && typeof v.found === 'boolean') {
    return v.found ? t(lang, 'limits.reply.found', { ref: f(v.ref), n: f(v.charges), id: f(v.charge_id) }) : t(lang, 'limits.reply.none', { ref: f(v.ref) });
  }
  return null;
}

/** The stock a run's summary shows: the items its scenario expects figures for, or else the camera. */
export function shownStock(run: RunResult): Array<{ item: string; available: number | undefined }> {
  const items = Object.keys(run.scenario.expect.stock ?? {});
  return (items.length > 0 ? items : ['camera']).map((item) => ({ item, available: run.db.items.find((row) => row.item_id === item)?.available }));
}

export function formatDiff(lang: Lang, diff: SnapshotDiff): string {
  const parts: string[] = [];
  for (const s of diff.stock) {
    parts.push(t(lang, 'trace.diff.stock', { item: s.item, from: s.available[0], to: s.available[1], v0: s.version[0], v1: s.version[1] }));
  }
  if (diff.ledgerAdded.length > 0) {
    const ids = diff.ledgerAdded.map((row) => (row.result as { reservation_id?: string; release_id?: string }).reservation_id ?? (row.result as { release_id?: string }).release_id ?? shortKey(row.key));
    parts.push(t(lang, 'trace.diff.ledgerAdded', { n: diff.ledgerAdded.length, ids: ids.join(', ') }));
  }
  if (diff.ledgerRemoved.length > 0) parts.push(t(lang, 'trace.diff.ledgerRemoved', { n: diff.ledgerRemoved.length }));
  // docs/spec.md §13–§14: the limits' tables, each only when it changed
  if (diff.historyAdded) parts.push(t(lang, 'limits.diff.history', { deltas: diff.historyAdded.map((row) => `${row.item_id} ${row.delta > 0 ? '+' : ''}${row.delta}`).join(', ') }));
  if (diff.tombstonesAdded) parts.push(t(lang, 'limits.diff.tombstones', { n: diff.tombstonesAdded.length }));
  if (diff.finishedAdded) parts.push(t(lang, 'limits.diff.finished', { tasks: diff.finishedAdded.map((row) => row.task_id).join(', ') }));
  if (diff.outboxAdded) parts.push(t(lang, 'limits.diff.outbox', { refs: diff.outboxAdded.map((row) => `${row.ref} ${row.amount}`).join(', ') }));
  if (diff.chargesAdded) parts.push(t(lang, 'limits.diff.charges', { charges: diff.chargesAdded.map((row) => `${row.charge_id} ${row.ref} ${row.amount}`).join(', ') }));
  return parts.length > 0 ? parts.join(' · ') : t(lang, 'trace.diff.none');
}

export function pad(text: string, width: number): string {
  const w = displayWidth(text);
  return w >= width ? text : text + ' '.repeat(width - w);
}

export function padStart(text: string, width: number): string {
  const w = displayWidth(text);
  return w >= width ? text : ' '.repeat(width - w) + text;
}

/** Wrap prose to a width, every line prefixed by `indent`. */
export function wrap(text: string, width: number, indent = ''): string {
  if (text.trim() === '') return '';
  return flow([[text, null]], { width, indent }).join('\n');
}

// ── Display width ─────────────────────────────────────────────────────────────────────────────────────
// A terminal gives a CJK character (and a few emoji such as ⚡) two columns and a combining mark none, so a
// line is measured in columns, never in `.length`. This is the one table of wide characters: the width
// (`charWidth`, `displayWidth`) and the line breaking (`tokens`, `flow`: a Chinese line breaks between any two
// CJK characters) both read it.
//
// The ranges are the code points Unicode's EastAsianWidth.txt (UAX #11, Unicode 14.0) gives East_Asian_Width
// W (wide) or F (fullwidth), taken only for the blocks a teaching trace can meet; everything else is one column.
// A (ambiguous: …, →, ■, ◇) counts as one column, as a terminal outside an East Asian locale shows it; H
// (halfwidth, e.g. ｱ U+FF71) and Na are narrow. An unassigned code point inside a run is counted with it.

const ANSI = /\x1b\[[0-9;]*m/g;

const ZERO_WIDTH: Array<[number, number]> = [
  [0x0300, 0x036f], [0x200b, 0x200f], [0x20d0, 0x20ff], [0xfe00, 0xfe0f], [0xfe20, 0xfe2f],
];

/** The CJK scripts' wide and fullwidth characters: the ones a line may also break between. */
const CJK_WIDE: Array<[number, number]> = [
  [0x1100, 0x115f], // Hangul Jamo (the leading consonants)
  [0x2e80, 0x303e], // CJK Radicals Supplement, Kangxi Radicals, Ideographic Description, CJK Symbols and Punctuation (、。「」【】, U+3000 F); not U+303F (N)
  [0x3041, 0x3247], // Hiragana, Katakana, Bopomofo, Hangul Compatibility Jamo, Kanbun, CJK Strokes, Enclosed CJK Letters up to U+3247
  [0x3250, 0x4dbf], // the rest of Enclosed CJK (U+3248–324F are A), CJK Compatibility, CJK Unified Ideographs Extension A; not Yijing Hexagrams (N)
  [0x4e00, 0x9fff], // CJK Unified Ideographs
  [0xa000, 0xa4c6], // Yi Syllables and Radicals
  [0xa960, 0xa97c], // Hangul Jamo Extended-A
  [0xac00, 0xd7a3], // Hangul Syllables
  [0xf900, 0xfaff], // CJK Compatibility Ideographs
  [0xfe10, 0xfe19], // Vertical Forms
  [0xfe30, 0xfe6b], // CJK Compatibility Forms, Small Form Variants
  [0xff01, 0xff60], // Fullwidth Forms (，（）：！？, F); the halfwidth forms after U+FF60 (ｱ) are narrow
  [0xffe0, 0xffe6], // Fullwidth signs (￥, F)
  [0x20000, 0x2fffd], [0x30000, 0x3fffd], // planes 2 and 3: CJK Unified Ideographs Extensions B…
];

/** Symbols and emoji that are wide (⚡, ⏳, ✅, …): two columns, but words like any other for line breaking. */
const SYMBOL_WIDE: Array<[number, number]> = [
  [0x231a, 0x231b], [0x2329, 0x232a], [0x23e9, 0x23ec], [0x23f0, 0x23f0], [0x23f3, 0x23f3], [0x25fd, 0x25fe],
  [0x2614, 0x2615], [0x2648, 0x2653], [0x267f, 0x267f], [0x2693, 0x2693], [0x26a1, 0x26a1], [0x26aa, 0x26ab],
  [0x26bd, 0x26be], [0x26c4, 0x26c5], [0x26ce, 0x26ce], [0x26d4, 0x26d4], [0x26ea, 0x26ea], [0x26f2, 0x26f3],
  [0x26f5, 0x26f5], [0x26fa, 0x26fa], [0x26fd, 0x26fd], [0x2705, 0x2705], [0x270a, 0x270b], [0x2728, 0x2728],
  [0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755], [0x2757, 0x2757], [0x2795, 0x2797], [0x27b0, 0x27b0],
  [0x27bf, 0x27bf], [0x2b1b, 0x2b1c], [0x2b50, 0x2b50], [0x2b55, 0x2b55],
  // Miscellaneous Symbols and Pictographs, Emoticons, Transport and Map Symbols, Supplemental Symbols and
  // Pictographs: only their W runs (🌡 U+1F321, 🕯 U+1F56F, … are N: one column without a variation selector)
  [0x1f300, 0x1f320], [0x1f32d, 0x1f335], [0x1f337, 0x1f37c], [0x1f37e, 0x1f393], [0x1f3a0, 0x1f3ca],
  [0x1f3cf, 0x1f3d3], [0x1f3e0, 0x1f3f0], [0x1f3f4, 0x1f3f4], [0x1f3f8, 0x1f43e], [0x1f440, 0x1f440],
  [0x1f442, 0x1f4fc], [0x1f4ff, 0x1f53d], [0x1f54b, 0x1f54e], [0x1f550, 0x1f567], [0x1f57a, 0x1f57a],
  [0x1f595, 0x1f596], [0x1f5a4, 0x1f5a4], [0x1f5fb, 0x1f64f], [0x1f680, 0x1f6c5], [0x1f6cc, 0x1f6cc],
  [0x1f6d0, 0x1f6d2], [0x1f6d5, 0x1f6df], [0x1f6eb, 0x1f6ec], [0x1f6f4, 0x1f6fc], [0x1f90c, 0x1f93a],
  [0x1f93c, 0x1f945], [0x1f947, 0x1f9ff],
];

/** Every wide range, in code point order (the lookup is a binary search). */
const WIDE: Array<[number, number]> = [...CJK_WIDE, ...SYMBOL_WIDE].sort(([a], [b]) => a - b);

function inRanges(cp: number, ranges: Array<[number, number]>): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = ranges[mid]!;
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
}

/** A character a terminal shows in two columns (East_Asian_Width W or F). */
export function isWide(cp: number): boolean {
  return inRanges(cp, WIDE);
}

/** A wide character of a CJK script (ideograph, kana, hangul, CJK or fullwidth punctuation): a line may break before and after it. */
export function isCjk(cp: number): boolean {
  return inRanges(cp, CJK_WIDE);
}

/** `isCjk` as a regular-expression class body (for the `u` flag), built from the same table. */
const CJK_CLASS = CJK_WIDE.map(([a, b]) => `\\u{${a.toString(16)}}-\\u{${b.toString(16)}}`).join('');

/** Columns one character takes in a terminal. */
export function charWidth(cp: number): 0 | 1 | 2 {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp < 0x300) return 1;
  if (inRanges(cp, ZERO_WIDTH)) return 0;
  return isWide(cp) ? 2 : 1;
}

/** Columns a string takes in a terminal: colour codes take none, CJK characters two. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text.replace(ANSI, '')) width += charWidth(ch.codePointAt(0)!);
  return width;
}

// ── Flowing text to a width ───────────────────────────────────────────────────────────────────────────

/** A colour for a run of text (chalk's functions fit), or null for plain. */
export type Paint = ((text: string) => string) | null;

/** Text in runs that keep their own colour; words are never split, so colour codes never are. */
export type Segments = Array<readonly [string, Paint]>;

export interface FlowOptions {
  width: number;
  /** Prefix of the first line (already laid out: columns, colour), and of the lines after it. */
  indent?: string;
  hang?: string;
}

/** A no-break space glues two words into one token (`attempt\u00a02`); it is printed as a plain space. */
export const GLUE = '\u00a0';

/** A number (`1`, `×1,`, `0)`) is never left alone at the start of a line: it stays with the word before it. */
const NUMBER_TOKEN = /^[×(]?\d[\d.,:;)\]]*[、。，．：；！？）」』]?$/;

/** A word with a CJK character in it; a CJK character (with a closing mark after it), or a run of anything else. */
const CJK_CHAR = new RegExp(`[${CJK_CLASS}]`, 'u');
const CJK_PARTS = new RegExp(`[${CJK_CLASS}][、。，．：；！？）」』]?|[^${CJK_CLASS}]+`, 'gu');
/** Chinese punctuation, which carries its own space: no space is put before or after it (`（reserve）会打破`, not `（reserve） 会打破`). */
const FULLWIDTH_MARK = /^[、。，．：；！？（）「」『』《》〈〉【】]$/;
const SPACE_AT_MARK = /(?<=\S) +(?=[、。，．：；！？（）「」『』《》〈〉【】])|(?<=[、。，．：；！？（）「」『』《》〈〉【】]) +(?=\S)/g;

/** Chinese text without the spaces that words joined around its punctuation left (a line's indent is kept). */
export function tighten(text: string): string {
  return text.replace(SPACE_AT_MARK, '');
}

/** Chinese punctuation that never starts a line, and the marks that never end one. */
const CLOSING = /^[、。，．：；！？）」』》〉】]/;
const OPENING = /[（「『《〈【]$/;

/**
 * Chinese words a line never splits, though the segmenter may: the chapter's terms (GLOSSARY.md) and the counted
 * attempts and calls (`第 2 次尝试` stays whole with its number, see tokens()).
 */
const NEVER_SPLIT = ['重试', '尝试', '次尝试', '次调用', '放弃', '幂等', '待定', '回执', '调度', '不变量', '账本', '崩溃', '重放', '提交', '预留', '故障', '决策', '探索', '参考运行'];

/** Word boundaries of Chinese text (ICU's dictionary, through Intl): where a line may break inside a run of it. */
const WORDS = new Intl.Segmenter('zh', { granularity: 'word' });

/** The offsets inside `chunk` where a Chinese word ends and another starts, but never inside a NEVER_SPLIT word. */
function wordBreaks(chunk: string): Set<number> {
  const breaks = new Set<number>();
  for (const { index } of WORDS.segment(chunk)) if (index > 0) breaks.add(index);
  for (const word of NEVER_SPLIT) {
    for (let at = chunk.indexOf(word); at !== -1; at = chunk.indexOf(word, at + 1)) {
      for (let i = at + 1; i < at + word.length; i++) breaks.delete(i);
    }
  }
  return breaks;
}

/**
 * The words a text may break between: spaces, and in Chinese the boundaries between its words (a closing mark
 * staying with the word before it, an opening mark with the one after), never inside a word — `放弃` is never
 * `放` at a line's end and `弃` at the next one's start. Words glued with GLUE stay one token in any script, and
 * a number between Chinese words stays with both (`第 2 次尝试`). `attached`: the word followed the one before
 * it with no space in the text, so joining them again adds none. `cjk`: a Chinese word, which flow() may still
 * cut between its characters if it is wider than a whole line.
 */
function tokens(text: string): Array<{ word: string; attached: boolean; cjk?: boolean }> {
  const out: Array<{ word: string; attached: boolean; cjk?: boolean }> = [];
  let afterNumber = false;
  const push = (word: string, attached: boolean, cjk = false) => {
    const number = NUMBER_TOKEN.test(word);
    if (out.length > 0 && number) out[out.length - 1]!.word += (attached ? '' : GLUE) + word;
    else if (out.length > 0 && afterNumber && !attached && cjk && isCjk(word.codePointAt(0)!) && isCjk(lastCodePoint(out[out.length - 1]!.word.split(GLUE)[0]!))) {
      out[out.length - 1]!.word += GLUE + word; // 第 2 次: the number's Chinese on both sides, one token
    } else out.push({ word, attached, ...(cjk ? { cjk } : {}) });
    afterNumber = number && !attached;
  };
  for (const chunk of text.split(/[ \t\r\n]+/)) {
    if (chunk === '') continue;
    if (!CJK_CHAR.test(chunk) || chunk.includes(GLUE)) push(chunk, false);
    else {
      const breaks = wordBreaks(chunk);
      const parts = chunk.match(CJK_PARTS) ?? [];
      const joined: string[] = [];
      let at = 0;
      let previous = '';
      for (const part of parts) {
        // inside Chinese, a break only where a word ends; between Chinese and anything else, as before
        const inWord = joined.length > 0 && isCjk(lastCodePoint(previous)) && isCjk(part.codePointAt(0)!) && !breaks.has(at) && !CLOSING.test(part) && !OPENING.test(previous);
        if (joined.length > 0 && (inWord || CLOSING.test(part) || OPENING.test(joined[joined.length - 1]!))) joined[joined.length - 1] += part;
        else joined.push(part);
        at += part.length;
        previous = part;
      }
      joined.forEach((part, i) => push(part, i > 0, true));
    }
  }
  return out;
}

/** A Chinese word cut between its characters: only when it is wider than a whole line. */
function characters(word: string): string[] {
  const parts = word.match(CJK_PARTS) ?? [word];
  const joined: string[] = [];
  for (const part of parts) {
    if (joined.length > 0 && (CLOSING.test(part) || OPENING.test(joined[joined.length - 1]!))) joined[joined.length - 1] += part;
    else joined.push(part);
  }
  return joined;
}

/**
 * Lay coloured text out in lines of at most `width` columns: the first line after `indent`, the others after
 * `hang` (default: as many spaces as the indent is wide). A word wider than a whole line stays whole on a
 * line of its own — an unbreakable token (a key, a path) is the one thing allowed past the width.
 */
export function flow(segments: Segments, options: FlowOptions): string[] {
  const indent = options.indent ?? '';
  const hang = options.hang ?? ' '.repeat(displayWidth(indent));
  const lines: string[] = [];
  let line = indent;
  let used = displayWidth(indent);
  let empty = true;
  let start = used;
  const room = options.width - displayWidth(hang);
  for (const [text, paint] of segments) {
    const queue = tokens(text);
    for (let q = 0; q < queue.length; q++) {
      const { word, attached, cjk } = queue[q]!;
      const w = displayWidth(word);
      if (cjk === true && w > room && !word.includes(GLUE)) {
        // A Chinese word wider than a whole line: cut between its characters, as a last resort.
        queue.splice(q + 1, 0, ...characters(word).map((part, i) => ({ word: part, attached: i > 0 || attached })));
        continue;
      }
      const before = lastCodePoint(stripAnsi(line));
      const cjkJoin = !empty && (attached || (isCjk(word.codePointAt(0)!) && isCjk(before)) || FULLWIDTH_MARK.test(stripAnsi(word).charAt(0)) || FULLWIDTH_MARK.test(String.fromCodePoint(Math.max(0, before))));
      const gap = empty || cjkJoin ? 0 : 1;
      if (!empty && used + gap + w > options.width) {
        lines.push(line);
        line = hang;
        used = displayWidth(hang);
        start = used;
        empty = true;
      }
      const sep = empty || cjkJoin ? '' : ' ';
      const shown = word.replaceAll(GLUE, ' ');
      line += sep + (paint ? paint(shown) : shown);
      used += (empty ? 0 : sep.length) + w;
      empty = false;
    }
  }
  if (!empty || used > start || lines.length === 0) lines.push(line);
  return lines;
}

/** The last code point of a text (a whole surrogate pair), or -1 if it is empty. */
function lastCodePoint(text: string): number {
  if (text === '') return -1;
  const last = text.codePointAt(text.length - 1)!;
  return last >= 0xdc00 && last <= 0xdfff && text.length > 1 ? text.codePointAt(text.length - 2)! : last;
}

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}
