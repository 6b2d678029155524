/**
 * The one option spec of the CLI: every option that more than one command takes is declared here once —
 * its parseArgs shape, its help line (in the language asked for), its default and its validation — so
 * `--seed`, `--runner`, `--storage`, `--db`, `--json` and `--no-color` mean the same thing, with the same
 * default, in every command.
 */
import type { StorageKind } from '../core/storage.js';
import { parseDbChoice, shownUrl, type DbChoice } from '../postgres/url.js';
import { DEFAULT_SEED } from '../core/defaults.js';
import { t, type Lang } from '../render/words/index.js';
import { pad } from '../render/format.js';
import { DEFAULT_WIDTH } from '../render/renderText.js';
import { UsageError, type Io } from './io.js';

/**
 * The width of text that does not go to a terminal (a pipe, a file, a test): fixed, so that the same run
 * prints the same bytes wherever it is sent. A terminal's own width is used only when there is one.
 */
export const FIXED_WIDTH = DEFAULT_WIDTH;
/** Narrower than this, a trace is no longer a table anyone can read. */
const MIN_WIDTH = 40;
/** Wider than this is no terminal anyone reads a trace in. */
const MAX_WIDTH = 1000;

/** memory: in-memory SQLite with the same crash model as files (only committed data survives); file: a temp folder. */
export const DEFAULT_STORAGE: StorageKind = 'memory';

interface Spec {
  parse: { type: 'string' | 'boolean'; short?: string; multiple?: boolean };
  /** The option as its help names it (`--seed N`), and its text in a language. */
  flag: string;
  help: (lang: Lang) => string;
}

export const SHARED_OPTIONS = {
  seed: { parse: { type: 'string' }, flag: '--seed N', help: (lang) => t(lang, 'help.option.seed', { seed: DEFAULT_SEED }) },
  runner: { parse: { type: 'string' }, flag: '--runner NAME', help: (lang) => t(lang, 'help.option.runner') },
  storage: { parse: { type: 'string' }, flag: '--storage KIND', help: (lang) => t(lang, 'help.option.storage', { storage: DEFAULT_STORAGE }) },
  json: { parse: { type: 'boolean' }, flag: '--json', help: (lang) => t(lang, 'help.option.json') },
  'no-color': { parse: { type: 'boolean' }, flag: '--no-color', help: (lang) => t(lang, 'help.option.noColor') },
  width: { parse: { type: 'string' }, flag: '--width N', help: (lang) => t(lang, 'help.option.width', { width: FIXED_WIDTH }) },
  html: { parse: { type: 'string' }, flag: '--html DIR', help: (lang) => t(lang, 'help.option.html') },
  db: { parse: { type: 'string' }, flag: '--db DB', help: (lang) => t(lang, 'help.option.db') },
} as const satisfies Record<string, Spec>;

/** `--lang` is taken out of every command line before the command parses it (main.ts): help only. */
const LANG_HELP = { flag: '--lang zh|en', help: (lang: Lang) => t(lang, 'help.option.lang') };

/** Where an option's text starts: its name, padded, after the four spaces of a command's options. */
const FLAG_COLUMN = 18;
const TEXT_INDENT = ' '.repeat(4 + FLAG_COLUMN);

/**
 * One option as a command's help shows it: `    --seed N          text…`; each further line of the text
 * (a `\n` in the catalogue) starts under the text. Each language breaks its own lines: Chinese help fits 80
 * columns (CJK characters are two wide, see displayWidth).
 */
export function optionHelp(flag: string, text: string): string {
  return `    ${pad(flag, FLAG_COLUMN)}${text.split('\n').join(`\n${TEXT_INDENT}`)}`;
}

export type SharedOption = keyof typeof SHARED_OPTIONS;

/** The parseArgs options of the shared options a command takes. */
export function sharedParse<K extends SharedOption>(...names: K[]): { [N in K]: (typeof SHARED_OPTIONS)[N]['parse'] } {
  return Object.fromEntries(names.map((name) => [name, SHARED_OPTIONS[name].parse])) as { [N in K]: (typeof SHARED_OPTIONS)[N]['parse'] };
}

/** Their help lines, indented as a command's help shows options; `lang` is the one every command takes. */
export function sharedHelp(lang: Lang, ...names: Array<SharedOption | 'lang'>): string {
  return names.map((name) => (name === 'lang' ? LANG_HELP : SHARED_OPTIONS[name])).map((o) => optionHelp(o.flag, o.help(lang))).join('\n');
}

export function parseSeed(lang: Lang, value: string | undefined): number {
  if (value === undefined) return DEFAULT_SEED;
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(t(lang, 'cli.seed.bad', { given: JSON.stringify(value) }));
  return Number(value);
}

export function parseStorage(lang: Lang, value: string | undefined): StorageKind {
  if (value === undefined) return DEFAULT_STORAGE;
  if (value !== 'file' && value !== 'memory') throw new UsageError(t(lang, 'cli.storage.bad', { given: JSON.stringify(value) }));
  return value;
}

/** `--db sqlite|postgres|postgres://…`: SQLite when not given. A URL's password is not repeated in a refusal. */
export function parseDb(lang: Lang, value: string | undefined): DbChoice {
  if (value === undefined) return { kind: 'sqlite' };
  const choice = parseDbChoice(value);
  if (!('bad' in choice)) return choice;
  const given = JSON.stringify(shownUrl(value));
  if (choice.bad === 'value') throw new UsageError(t(lang, 'cli.db.bad', { given }));
  throw new UsageError(t(lang, 'cli.db.badUrl', { given, problem: t(lang, choice.bad === 'noHost' ? 'cli.db.noHost' : 'cli.db.unparsable') }));
}

/** `--width N`, else the terminal's columns, else the fixed width (a pipe or a file: same bytes every time). */
export function parseWidth(lang: Lang, value: string | undefined, io: Io): number {
  if (value !== undefined) {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < MIN_WIDTH || n > MAX_WIDTH) throw new UsageError(t(lang, 'cli.width.bad', { min: MIN_WIDTH, max: MAX_WIDTH, given: JSON.stringify(value) }));
    return n;
  }
  return io.isTTY && io.columns !== undefined && io.columns >= MIN_WIDTH ? io.columns : FIXED_WIDTH;
}

/**
 * A command faultlab suggests, as the learner should type it to keep reading in this language: in English
 * as it is; otherwise with `--lang` (after npm's `--` for an npm script), so a learner who asked for Chinese
 * with the flag does not get English back from the next command.
 */
export function inThisLanguage(lang: Lang, command: string): string {
  if (lang === 'en') return command;
  return command.startsWith('npm run ') && !command.includes(' -- ') ? `${command} -- --lang ${lang}` : `${command} --lang ${lang}`;
}
