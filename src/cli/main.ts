/**
 * The only place that touches the terminal, the environment and exit codes. Every command gets an Io and
 * returns an exit code: 0 every check held, 1 a check failed, 2 bad input, 70 a bug in faultlab, 130/143
 * stopped by SIGINT/SIGTERM. `runCli` is the process around it (bin/faultlab.js): signals, a closed
 * stdout, stray errors, and an exit as soon as the command is done.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/paths.js';
import { currentLang, isLang, LANGS, langFromLocale, setLang, t, type Lang } from '../core/i18n/index.js';
import { sweepStaleTempDirs } from '../core/tempDir.js';
import { dlqCommand, DLQ_HELP } from './commands/dlq.js';
import { exploreCommand, EXPLORE_HELP } from './commands/explore.js';
import { gradeCommand, GRADE_HELP } from './commands/grade.js';
import { listCommand, LIST_HELP } from './commands/list.js';
import { runCommand, RUN_HELP } from './commands/run.js';
import { holdContainmentUntilExit, isContained } from './contain.js';
import { report } from './errors.js';
import { cleanUp, runStopHooks, yieldToSignals } from './interrupt.js';
import { EXIT, OutputError, processIo, UsageError, type Io } from './io.js';

type Command = (argv: string[], io: Io) => Promise<number>;

export const commands = new Map<string, { run: Command; help: string }>([
  ['run', { run: runCommand, help: RUN_HELP }],
  ['list', { run: listCommand, help: LIST_HELP }],
  ['grade', { run: gradeCommand, help: GRADE_HELP }],
  ['explore', { run: exploreCommand, help: EXPLORE_HELP }],
  ['dlq', { run: dlqCommand, help: DLQ_HELP }],
]);

function usage(): string {
  return [
    'faultlab — a deterministic simulator for the failures that make retries dangerous',
    '',
    [...commands.values()].map((c) => c.help).join('\n\n'),
    '',
    'Exit codes: 0 every check held · 1 a check failed · 2 bad input (unreadable or invalid scenario, bad option,',
    'unusable path or runner file) · 70 a bug in faultlab (FAULTLAB_DEBUG=1 shows where) · 130/143 stopped by SIGINT/SIGTERM.',
    'Language: --lang zh|en on any command (default: the locale — LC_ALL, LC_MESSAGES, LANG; zh* is Chinese).',
    'Lessons: lessons/ · the exercise: src/runner/LearnerRunner.ts',
  ].join('\n');
}

/**
 * `--lang zh|en` (or `--lang=zh`), anywhere on the line and for every command, taken out before the command
 * parses its own options; without it, the locale decides (LC_ALL, LC_MESSAGES, LANG).
 */
function takeLang(argv: string[], env: Record<string, string | undefined>): { argv: string[]; lang: Lang } | { argv: string[]; bad: string } {
  const rest: string[] = [];
  let given: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === '--lang') given = argv[(i += 1)] ?? '';
    else if (arg.startsWith('--lang=')) given = arg.slice('--lang='.length);
    else rest.push(arg);
  }
  if (given === undefined) return { argv: rest, lang: langFromLocale(env) };
  return isLang(given) ? { argv: rest, lang: given } : { argv: rest, bad: given };
}

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  try {
    sweepStaleTempDirs(); // folders left by a faultlab process that was killed outright
  } catch {
    // a sweep that cannot run must never stop a command
  }
  const chosen = takeLang(argv, io.env);
  const [name, ...rest] = chosen.argv;
  const command = name === undefined ? undefined : commands.get(name);
  const before = currentLang();
  try {
    if ('bad' in chosen) throw new UsageError(t('cli.lang.bad', { langs: LANGS.join(', '), given: JSON.stringify(chosen.bad) }));
    setLang(chosen.lang);
    if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
      (name === undefined ? io.stderr : io.stdout).write(usage() + '\n');
      return name === undefined ? EXIT.badInput : EXIT.ok;
    }
    if (name === '--version' || name === '-v') {
      const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
      io.stdout.write(`faultlab ${pkg.version}\n`);
      return EXIT.ok;
    }
    if (command === undefined) {
      io.stderr.write(`faultlab: unknown command ${JSON.stringify(name)}\n\n${usage()}\n`);
      return EXIT.badInput;
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(command.help + '\n');
      return EXIT.ok;
    }
    return await command.run(rest, io);
  } catch (error) {
    return report(error, io, name ?? '', command?.help ?? usage());
  } finally {
    setLang(before);
    runStopHooks(); // what the command holds (a --keep-db lock) is given back on every path
  }
}

/**
 * The process around `main`: what only a real process has. SIGINT and SIGTERM clean up and exit 130/143;
 * a closed pipe (`| head`) ends quietly; a stdout that fails (a full disk, /dev/full) is reported and
 * exits 2; an error escaping from a runner file's timers is reported and the run goes on; and the process
 * exits as soon as the command is done, so nothing a runner left behind (a timer, an open handle) keeps it
 * alive or writes after the output.
 */
export async function runCli(argv: string[]): Promise<never> {
  const exit: (code: number) => never = process.exit.bind(process); // the real one, taken before any runner file can replace it
  const io = processIo();
  const stderr = (text: string) => {
    try {
      io.stderr.write(text);
    } catch {
      // nowhere left to say it
    }
  };
  let stopping = false;
  const stop = (signal: 'SIGINT' | 'SIGTERM') => {
    if (stopping) return;
    stopping = true;
    cleanUp();
    stderr(`faultlab: stopped by ${signal}; temporary files removed\n`);
    exit(signal === 'SIGINT' ? EXIT.sigint : EXIT.sigterm);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('exit', () => cleanUp());
  let outputFailure: NodeJS.ErrnoException | null = null;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // A reader that closes the pipe early is not an error; any other failure is reported after the command.
    if (error.code === 'EPIPE') {
      cleanUp();
      exit(Number(process.exitCode ?? EXIT.ok));
    }
    outputFailure ??= error;
  });
  const stray = (error: unknown) => {
    if (isContained()) {
      const what = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
      stderr(`faultlab: the runner file's own asynchronous code (a timer or a promise) failed, outside any step: ${what} (ignored)\n`);
      return;
    }
    const code = report(error, io, argv[0] ?? '', '');
    cleanUp();
    exit(code);
  };
  process.on('uncaughtException', stray);
  process.on('unhandledRejection', stray);
  holdContainmentUntilExit();

  let code = await main(argv, io);
  // A signal that came while the last scenario ran is handled now (stop() exits 130/143), not forgotten.
  if (code !== EXIT.sigint && code !== EXIT.sigterm) await yieldToSignals();
  // stdout's 'error' comes a tick after the write that failed (and `errored` does not stay set): both are read.
  const failed = outputFailure ?? (process.stdout.errored as NodeJS.ErrnoException | null);
  if (failed && failed.code !== 'EPIPE') code = report(new OutputError('stdout', failed), io, argv[0] ?? '', '');
  cleanUp();
  exit(code);
}
