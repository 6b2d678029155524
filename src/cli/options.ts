/**
 * The one option spec of the CLI: every option that more than one command takes is declared here once —
 * its parseArgs shape, its help line, its default and its validation — so `--seed`, `--runner`,
 * `--storage`, `--json` and `--no-color` mean the same thing, with the same default, in every command.
 */
import type { StorageKind } from '../core/storage.js';
import { DEFAULT_SEED } from '../core/defaults.js';
import { DEFAULT_WIDTH } from '../render/renderText.js';
import { UsageError, type Io } from './io.js';

/**
 * The width of text that does not go to a terminal (a pipe, a file, a test): fixed, so that the same run
 * prints the same bytes wherever it is sent. A terminal's own width is used only when there is one.
 */
export const FIXED_WIDTH = DEFAULT_WIDTH;
/** Narrower than this, a trace is no longer a table anyone can read. */
const MIN_WIDTH = 40;

/** memory: in-memory SQLite with the same crash model as files (only committed data survives); file: a temp folder. */
export const DEFAULT_STORAGE: StorageKind = 'memory';

interface Spec {
  parse: { type: 'string' | 'boolean'; short?: string; multiple?: boolean };
  help: string;
}

export const SHARED_OPTIONS = {
  seed: { parse: { type: 'string' }, help: `--seed N          seed of the virtual clock and rng (default ${DEFAULT_SEED}); same seed, same trace` },
  runner: {
    parse: { type: 'string' },
    help: '--runner NAME     reference (default), learner (src/runner/LearnerRunner.ts), mutant:NAME (a deliberately\n                      broken runner or store, src/mutants/catalogue.ts), or a .ts/.js file exporting a runner class',
  },
  storage: { parse: { type: 'string' }, help: `--storage KIND    ${DEFAULT_STORAGE} (default: in-memory SQLite, the same crash model) or file (a temporary folder)` },
  json: { parse: { type: 'boolean' }, help: '--json            one JSON document on stdout, nothing else' },
  'no-color': { parse: { type: 'boolean' }, help: '--no-color        plain text (also NO_COLOR=1, and whenever stdout is not a terminal)' },
  width: {
    parse: { type: 'string' },
    help: `--width N         wrap the trace to N columns (default: the terminal's; ${FIXED_WIDTH} when not a terminal)`,
  },
  html: { parse: { type: 'string' }, help: '--html DIR        also write each run as a self-contained HTML page in DIR, with an index' },
} as const satisfies Record<string, Spec>;

export type SharedOption = keyof typeof SHARED_OPTIONS;

/** The parseArgs options of the shared options a command takes. */
export function sharedParse<K extends SharedOption>(...names: K[]): { [N in K]: (typeof SHARED_OPTIONS)[N]['parse'] } {
  return Object.fromEntries(names.map((name) => [name, SHARED_OPTIONS[name].parse])) as { [N in K]: (typeof SHARED_OPTIONS)[N]['parse'] };
}

/** Their help lines, indented as a command's help shows options. */
export function sharedHelp(...names: SharedOption[]): string {
  return names.map((name) => `    ${SHARED_OPTIONS[name].help}`).join('\n');
}

export function parseSeed(value: string | undefined): number {
  if (value === undefined) return DEFAULT_SEED;
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`--seed must be an integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

export function parseStorage(value: string | undefined): StorageKind {
  if (value === undefined) return DEFAULT_STORAGE;
  if (value !== 'file' && value !== 'memory') throw new UsageError(`--storage must be memory or file, got ${JSON.stringify(value)}`);
  return value;
}

/** `--width N`, else the terminal's columns, else the fixed width (a pipe or a file: same bytes every time). */
export function parseWidth(value: string | undefined, io: Io): number {
  if (value !== undefined) {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < MIN_WIDTH || n > 1000) throw new UsageError(`--width must be an integer from ${MIN_WIDTH} to 1000, got ${JSON.stringify(value)}`);
    return n;
  }
  return io.isTTY && io.columns !== undefined && io.columns >= MIN_WIDTH ? io.columns : FIXED_WIDTH;
}
