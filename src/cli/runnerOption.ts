/**
 * `--runner` as the commands take it: the name checked before anything is imported (an empty name, a
 * folder, a FIFO, a .txt or .json are refused by what they are), and the file loaded inside the runner
 * containment, so that whatever its module does when imported — a syntax error, a throw, console output,
 * process.exit — ends in one message and exit 2, never in a stack trace or a silent exit.
 */
import { statSync } from 'node:fs';
import { extname } from 'node:path';
import { t } from '../core/i18n/index.js';
import { RunnerLoadError } from '../runner/load.js';
import { printable } from '../scenario/ScenarioError.js';
import { resolveRunner, sourceOf, type ResolvedRunner } from '../sim/target.js';
import { containRunnerCode, RunnerExitError, type Containment } from './contain.js';
import { BadInputError } from './io.js';

const RUNNER_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'];

export interface LoadedRunner extends ResolvedRunner {
  /** Present when the runner is a file: its code stays contained until the command releases it. */
  containment: Containment | null;
}

export async function loadRunnerOption(name: string | undefined, cwd: string): Promise<LoadedRunner> {
  if (name === '') throw new BadInputError(t('cli.runner.needsValue'));
  const source = sourceOf(name, cwd);
  if (source.kind !== 'file') return { ...(await resolveRunner(name, cwd)), containment: null };
  checkRunnerFile(name!, source.file);
  const containment = containRunnerCode();
  try {
    return { ...(await resolveRunner(name, cwd)), containment };
  } catch (error) {
    containment.release();
    throw asLoadError(name!, source.file, error);
  }
}

function checkRunnerFile(name: string, file: string): void {
  let stats;
  try {
    stats = statSync(file);
  } catch {
    return; // resolveRunner says "no such file" with the names it takes
  }
  if (stats.isDirectory()) throw new BadInputError(t('cli.runner.isFolder', { name }));
  if (!stats.isFile()) throw new BadInputError(t('cli.runner.notRegular', { name }));
  const ext = extname(file);
  if (!RUNNER_EXTENSIONS.includes(ext)) throw new BadInputError(t('cli.runner.badExtension', { name, extensions: RUNNER_EXTENSIONS.join(', '), ext: ext || t('cli.runner.noExtension') }));
}

/** Whatever importing the file threw, as bad input that says where (file:line:col when the error has one). */
function asLoadError(name: string, file: string, error: unknown): Error {
  if (error instanceof RunnerLoadError) return error;
  if (error instanceof RunnerExitError) return new BadInputError(t('cli.runner.exitedAtLoad', { name }));
  const e = error as Error;
  const message = String(e?.message ?? error);
  // esbuild (through tsx): "Transform failed with 1 error:\n/path/x.ts:3:14: ERROR: Unexpected ";"".
  const transform = /^(\S+:\d+:\d+): ERROR: (.*)$/m.exec(message);
  if (transform) return new BadInputError(t('cli.runner.syntaxAt', { name, where: transform[1]!, message: transform[2]! }), { cause: error });
  if (e instanceof SyntaxError) {
    const where = syntaxErrorPlace(file);
    return new BadInputError(where ? t('cli.runner.syntaxAt', { name, where, message }) : t('cli.runner.syntax', { name, message }), { cause: error });
  }
  const kind = e instanceof Error ? e.name : t('cli.runner.aValue');
  return new BadInputError(t('cli.runner.threwAtLoad', { name, kind, message: printable(message.split('\n')[0]!) }), { cause: error });
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
