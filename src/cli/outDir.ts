/**
 * A folder the CLI writes into (`explore --out`): checked before any work, so an hour of exploration never
 * ends in "cannot write"; made only when there is something to write, one level at a time (a recursive
 * mkdir on some paths, /proc/self/x among them, never returns).
 */
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { t, type Lang } from '../render/words/index.js';
import { BadInputError } from './io.js';

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String((error as Error).message);

/** Throws BadInputError unless `dir` is a folder faultlab can write in, or one it can make. */
export function checkOutDir(lang: Lang, option: string, given: string, cwd: string): string {
  if (given === '') throw new BadInputError(t(lang, 'cli.outDir.needsFolder', { option }));
  const dir = resolve(cwd, given);
  let at = dir;
  for (;;) {
    try {
      const stats = statSync(at);
      if (!stats.isDirectory()) {
        throw new BadInputError(at === dir ? t(lang, 'cli.outDir.isFile', { option, given }) : t(lang, 'cli.outDir.onPathIsFile', { option, given, at }));
      }
      accessSync(at, constants.W_OK);
      return dir;
    } catch (error) {
      if (error instanceof BadInputError) throw error;
      if (code(error) !== 'ENOENT') throw new BadInputError(t(lang, 'cli.outDir.cannotWrite', { option, given, at, code: code(error) }));
    }
    const parent = dirname(at);
    if (parent === at) throw new BadInputError(t(lang, 'cli.outDir.noFolder', { option, given }));
    at = parent;
  }
}

/** Make `dir` and its missing parents, one level at a time. */
export function makeOutDir(lang: Lang, option: string, dir: string): void {
  const missing: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    try {
      statSync(at);
      break;
    } catch {
      missing.unshift(at);
      if (dirname(at) === at) break;
    }
  }
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      if (code(error) !== 'EEXIST') throw new BadInputError(t(lang, 'cli.outDir.cannotMake', { option, dir, level, code: code(error) }));
    }
  }
}
