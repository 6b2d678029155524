/**
 * The command that shows a graded run in full: the same scenario, the same runner file, the same seed,
 * through `faultlab run`, which prints the whole trace and every check.
 */
import { isAbsolute, relative } from 'node:path';
import { DEFAULT_SEED } from '../core/defaults.js';
import type { Lang } from '../core/lang.js';

/** A path as the user would type it from `cwd`: relative when inside it, absolute otherwise. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/** Quote a word for a POSIX shell only when it needs it. */
export function shellWord(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `npx faultlab run …` for one graded run; in the grade's language (`--lang zh`), so the trace reads as the grade did. */
export function replayCommand(scenarioFile: string, runnerFile: string, seed: number, lang: Lang): string {
  const words = ['npx', 'faultlab', 'run', scenarioFile, '--runner', runnerFile];
  if (seed !== DEFAULT_SEED) words.push('--seed', String(seed));
  if (lang !== 'en') words.push('--lang', lang);
  return words.map(shellWord).join(' ');
}
