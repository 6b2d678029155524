/**
 * Every way a command can fail, as one clear message on stderr and an exit code. Bad input — a scenario, an
 * option, a path, a runner file, the environment — is exit 2 and names what to fix. Anything else is a
 * bug in faultlab: exit 70 with one line that says so. No stack trace reaches the user unless
 * FAULTLAB_DEBUG=1 asks for it (then every error shows its stack).
 */
import { said, t, word, type MessageKey, type Lang } from '../render/words/index.js';
import { saidOf } from '../core/message.js';
import { TempDirError } from '../core/tempDir.js';
import { PostgresStartError, PostgresUnavailableError } from '../postgres/errors.js';
import { RunnerLoadError } from '../runner/load.js';
import { formatProblem, printable, ScenarioError } from '../scenario/ScenarioError.js';
import { Interrupted } from './interrupt.js';
import { BadInputError, EXIT, OutputError, UsageError, type Io } from './io.js';

export const DEBUG_VARIABLE = 'FAULTLAB_DEBUG';

export function debugOn(io: Io): boolean {
  const value = io.env[DEBUG_VARIABLE] ?? '';
  return value !== '' && value !== '0';
}

/** A system error about a path (ENOENT, EACCES, EISDIR, ENOSPC, …): the environment, so bad input. */
function systemError(error: unknown): (NodeJS.ErrnoException & { path: string }) | null {
  const e = error as NodeJS.ErrnoException | null;
  return e !== null && typeof e === 'object' && typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code) && typeof e.path === 'string' ? (e as NodeJS.ErrnoException & { path: string }) : null;
}

/**
 * Node's parseArgs speaks English: its three messages a user meets are said again in the language of the command.
 * A message is replaced only when the English catalogue gives back exactly what Node said, so English stays
 * Node's own words, and a message of another Node version (or any other) is shown as it is.
 */
function parseArgsMessage(lang: Lang, message: string): string {
  const known: Array<[RegExp, MessageKey]> = [
    [/^Unknown option '(.+)'\. To specify a positional argument/s, 'cli.args.unknownOption'],
    [/^Option '(.+) <value>' argument missing$/, 'cli.args.missingValue'],
    [/^Option '(.+)' does not take an argument$/, 'cli.args.takesNoValue'],
  ];
  for (const [pattern, key] of known) {
    const option = pattern.exec(message)?.[1];
    if (option !== undefined && t('en', key, { option }) === message) return t(lang, key, { option });
  }
  return message;
}

/** Report `error` of command `name` on stderr; returns the exit code. */
export function report(lang: Lang, error: unknown, io: Io, name: string, help: string): number {
  const say = (text: string) => {
    try {
      io.stderr.write(`${printable(text)}\n`);
    } catch {
      // stderr is gone too: the exit code is all that is left
    }
  };
  const stack = () => (debugOn(io) && error instanceof Error && error.stack ? `\n${error.stack}` : '');
  if (error instanceof Interrupted) {
    say(`faultlab ${name}: ${t(lang, 'cli.stopped', { signal: error.signal })}`);
    return error.signal === 'SIGINT' ? EXIT.sigint : EXIT.sigterm;
  }
  if (error instanceof ScenarioError) {
    const problems = error.problems.map((problem) => formatProblem(problem, said(lang, problem.message))).join('\n');
    say(`${problems}\nfaultlab: ${t(lang, 'scenario.summary', { count: error.problems.length })}${stack()}`);
    return EXIT.badInput;
  }
  if (error instanceof RunnerLoadError) {
    say(`faultlab ${name}: --runner ${word(lang, error.said)}${stack()}`);
    return EXIT.badInput;
  }
  if (error instanceof UsageError && !error.showHelp) {
    say(`faultlab ${name}: ${error.message}${stack()}`);
    return EXIT.badInput;
  }
  if (error instanceof UsageError || (error as { code?: string } | null)?.code?.startsWith('ERR_PARSE_ARGS')) {
    say(`faultlab ${name}: ${error instanceof UsageError ? error.message : parseArgsMessage(lang, (error as Error).message)}${stack()}\n\n${help}`);
    return EXIT.badInput;
  }
  // The environment: no temporary folder, no embedded PostgreSQL here, or one that did not start.
  if (error instanceof TempDirError || error instanceof PostgresUnavailableError || error instanceof PostgresStartError) {
    say(`faultlab ${name}: ${word(lang, error.said)}${stack()}`);
    return EXIT.badInput;
  }
  if (error instanceof BadInputError) {
    say(`faultlab ${name}: ${error.message}${stack()}`);
    return EXIT.badInput;
  }
  if (error instanceof OutputError) {
    if (error.errno === 'EPIPE') return EXIT.ok; // a reader that closed the pipe early (`| head`) is not an error
    say(`faultlab ${name}: ${t(lang, error.errno === 'ENOSPC' ? 'cli.error.cannotWriteFull' : 'cli.error.cannotWrite', { stream: error.stream, errno: error.errno })}${stack()}`);
    return EXIT.badInput;
  }
  const system = systemError(error);
  if (system !== null) {
    say(`faultlab ${name}: ${t(lang, 'cli.error.cannotUse', { path: system.path, code: system.code! })}${stack()}`);
    return EXIT.badInput;
  }
  const what = error instanceof Error ? `${error.name}: ${said(lang, saidOf(error) ?? error.message).split('\n')[0]}` : String(error);
  const next = debugOn(io) ? t(lang, 'cli.error.stackFollows') : t(lang, 'cli.error.runAgain', { variable: DEBUG_VARIABLE });
  say(`faultlab ${name}: ${t(lang, 'cli.error.internal', { what, next })}${stack()}`);
  return EXIT.internal;
}
