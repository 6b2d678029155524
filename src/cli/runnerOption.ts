/**
 * `--runner` as the commands take it: the name checked before anything is imported (an empty name, a
 * folder, a FIFO, a .txt or .json are refused by what they are), and the file loaded in its box (src/box), so
 * that whatever its module does when imported — a syntax error, a throw, console output, process.exit, an
 * endless loop — ends in one message and exit 2, never in a stack trace, a silent exit or a hang.
 */
import { statSync } from 'node:fs';
import { extname } from 'node:path';
import { said, t, type Lang } from '../render/words/index.js';
import { RunnerLoadError } from '../runner/load.js';
import { printedText } from '../render/printed.js';
import { printable } from '../scenario/ScenarioError.js';
import { labelOf, openRunner, RunnerLoadFailed, sourceOf, type OpenedRunner } from '../target/runners.js';
import { BadInputError } from './io.js';

const RUNNER_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'];

/**
 * The runner a `--runner` value names, opened (a file in its box): the command closes it when it is done. What
 * the learner's code prints goes to stderr (`printed`): stdout stays faultlab's (one JSON document under --json).
 */
export async function loadRunnerOption(lang: Lang, name: string | undefined, cwd: string, printed?: (text: string) => void): Promise<OpenedRunner> {
  if (name === '') throw new BadInputError(t(lang, 'cli.runner.needsValue'));
  const source = sourceOf(name, cwd);
  if (source.kind === 'file') checkRunnerFile(lang, name!, source.file);
  try {
    return await openRunner(source, labelOf(name), printed ? { onOutput: (p) => printed(printedText(lang, p)) } : {});
  } catch (error) {
    throw source.kind === 'file' ? asLoadError(lang, name!, source.file, error) : error;
  }
}

function checkRunnerFile(lang: Lang, name: string, file: string): void {
  let stats;
  try {
    stats = statSync(file);
  } catch {
    return; // resolveRunner says "no such file" with the names it takes
  }
  if (stats.isDirectory()) throw new BadInputError(t(lang, 'cli.runner.isFolder', { name }));
  if (!stats.isFile()) throw new BadInputError(t(lang, 'cli.runner.notRegular', { name }));
  const ext = extname(file);
  if (!RUNNER_EXTENSIONS.includes(ext)) throw new BadInputError(t(lang, 'cli.runner.badExtension', { name, extensions: RUNNER_EXTENSIONS.join(', '), ext: ext || t(lang, 'cli.runner.noExtension') }));
}

/** Whatever importing the file threw in its box, as bad input that says where (file:line:col when the error has one). */
function asLoadError(lang: Lang, name: string, file: string, error: unknown): Error {
  if (error instanceof RunnerLoadError || !(error instanceof RunnerLoadFailed)) return error as Error;
  if (error.thrown === null) {
    // The box was lost while loading: it exited (process.exit at import), was killed, or hung past the load limit.
    if (error.loss?.killed) return new BadInputError(t(lang, 'cli.runner.hungAtLoad', { name }));
    return new BadInputError(t(lang, 'cli.runner.exitedAtLoad', { name }));
  }
  const e = error.thrown;
  if (e.name === 'RunnerExitError') return new BadInputError(t(lang, 'cli.runner.exitedAtLoad', { name }));
  const message = said(lang, e.message);
  // esbuild (through tsx): "Transform failed with 1 error:\n/path/x.ts:3:14: ERROR: Unexpected ";"".
  const transform = /^(\S+:\d+:\d+): ERROR: (.*)$/m.exec(message);
  if (transform) return new BadInputError(t(lang, 'cli.runner.syntaxAt', { name, where: transform[1]!, message: transform[2]! }), { cause: error });
  if (e.name === 'SyntaxError') {
    const where = syntaxErrorPlace(file);
    return new BadInputError(where ? t(lang, 'cli.runner.syntaxAt', { name, where, message }) : t(lang, 'cli.runner.syntax', { name, message }), { cause: error });
  }
  return new BadInputError(t(lang, 'cli.runner.threwAtLoad', { name, kind: e.name || t(lang, 'cli.runner.aValue'), message: printable(message.split('\n')[0]!) }), { cause: error });
}

/**
 * Where a JavaScript syntax error is: a dynamic import's SyntaxError does not say (Node prints the place
 * only for the main module), so on this error path only, Node checks the file's syntax without running it.
 */
function syntaxErrorPlace(file: string): string | undefined {
  // child_process is taken here, on this error path only: loading it is start-up time every command would pay.
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const check = spawnSync(process.execPath, ['--experimental-default-type=module', '--check', file], { encoding: 'utf8', timeout: 10_000 });
  const lines = (check.stderr ?? '').split('\n');
  const line = /^(.+):(\d+)$/.exec(lines[0] ?? '');
  if (check.status === 0 || line === null) return undefined; // the error is in a module it imports
  const caret = (lines[2] ?? '').indexOf('^');
  return `${line[1]}:${line[2]}${caret >= 0 ? `:${caret + 1}` : ''}`;
}
