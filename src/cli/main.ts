/**
 * The only place that touches the terminal, the environment and exit codes. Every command gets an Io and
 * returns an exit code: 0 every check held, 1 a check failed, 2 bad input, 70 a bug in faultlab, 130/143
 * stopped by SIGINT/SIGTERM. `runCli` is the process around it (bin/faultlab.js): signals, a closed
 * stdout, stray errors, and an exit as soon as the command is done.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/paths.js';
import { isLang, LANGS, langFromLocale, t, type Lang } from '../render/words/index.js';
import { sweepStaleTempDirs } from '../core/tempDir.js';
import { report } from './errors.js';
import { cleanUp, runStopHooks, yieldToSignals } from './interrupt.js';
import { EXIT, OutputError, processIo, UsageError, type Io } from './io.js';

type Command = (argv: string[], io: Io, lang: Lang) => Promise<number>;

interface CommandModule {
  run: Command;
  /** The command's help, written in the language of the command line when it is asked for. */
  help: (lang: Lang) => string;
}

/**
 * Each command, its code loaded only when it is named: `faultlab run` does not evaluate grade's, explore's
 * or dlq's code (nor what only they need, child_process, worker pools, HTML reports), and --version loads
 * none; start-up is most of a `faultlab run`. The bundle keeps this lazy (scripts/bundle-cli.mjs).
 */
export const commands = new Map<string, () => Promise<CommandModule>>([
  ['run', async () => import('./commands/run.js').then((m) => ({ run: m.runCommand, help: m.runHelp }))],
  ['list', async () => import('./commands/list.js').then((m) => ({ run: m.listCommand, help: m.listHelp }))],
  ['grade', async () => import('./commands/grade.js').then((m) => ({ run: m.gradeCommand, help: m.gradeHelp }))],
  ['explore', async () => import('./commands/explore.js').then((m) => ({ run: m.exploreCommand, help: m.exploreHelp }))],
  ['dlq', async () => import('./commands/dlq.js').then((m) => ({ run: m.dlqCommand, help: m.dlqHelp }))],
  ['torture', async () => import('./commands/torture.js').then((m) => ({ run: m.tortureCommand, help: m.tortureHelp }))],
]);

/** Every command's help: the one place that loads them all. */
async function usage(lang: Lang): Promise<string> {
  const helps: string[] = [];
  for (const load of commands.values()) helps.push((await load()).help(lang));
  return [
    t(lang, 'cli.usage.title'),
    '',
    helps.join('\n\n'),
    '',
    t(lang, 'cli.usage.exitCodes'),
    t(lang, 'cli.usage.language'),
    t(lang, 'cli.usage.lessons'),
  ].join('\n');
}

/**
 * `--lang zh|en` (or `--lang=zh`), anywhere on the line and for every command, taken out before the command
 * parses its own options; without it, the locale decides (LC_ALL, LC_MESSAGES, LANG).
 */
export function takeLang(argv: string[], env: Record<string, string | undefined>): { argv: string[]; lang: Lang } | { argv: string[]; bad: string } {
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
  // The language of the whole command, decided here once and handed down; a --lang it does not know is refused in English.
  const lang: Lang = 'lang' in chosen ? chosen.lang : 'en';
  const [name, ...rest] = chosen.argv;
  const load = name === undefined ? undefined : commands.get(name);
  let command: CommandModule | undefined;
  try {
    if ('bad' in chosen) throw new UsageError(t(lang, 'cli.lang.bad', { langs: LANGS.join(', '), given: JSON.stringify(chosen.bad) }));
    if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
      (name === undefined ? io.stderr : io.stdout).write((await usage(lang)) + '\n');
      return name === undefined ? EXIT.badInput : EXIT.ok;
    }
    if (name === '--version' || name === '-v') {
      const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
      io.stdout.write(`faultlab ${pkg.version}\n`);
      return EXIT.ok;
    }
    if (load === undefined) {
      io.stderr.write(`faultlab: ${t(lang, 'cli.unknownCommand', { name: JSON.stringify(name) })}\n\n${await usage(lang)}\n`);
      return EXIT.badInput;
    }
    command = await load();
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(command.help(lang) + '\n');
      return EXIT.ok;
    }
    return await command.run(rest, io, lang);
  } catch (error) {
    return report(lang, error, io, name ?? '', command?.help(lang) ?? (load !== undefined ? (await load()).help(lang) : await usage(lang)));
  } finally {
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
  // The process speaks the command's language from start to exit: a signal, a stray error or a failed
  // stdout reported outside main() is said in it too.
  const chosen = takeLang(argv, io.env);
  const lang: Lang = 'lang' in chosen ? chosen.lang : 'en';
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
    stderr(`faultlab: ${t(lang, 'cli.stopped', { signal })}\n`);
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
    const code = report(lang, error, io, argv[0] ?? '', '');
    cleanUp();
    exit(code);
  };
  process.on('uncaughtException', stray);
  process.on('unhandledRejection', stray);

  let code = await main(argv, io);
  // A signal that came while the last scenario ran is handled now (stop() exits 130/143), not forgotten.
  if (code !== EXIT.sigint && code !== EXIT.sigterm) await yieldToSignals();
  // stdout's 'error' comes a tick after the write that failed (and `errored` does not stay set): both are read.
  const failed = outputFailure ?? (process.stdout.errored as NodeJS.ErrnoException | null);
  if (failed && failed.code !== 'EPIPE') code = report(lang, new OutputError('stdout', failed), io, argv[0] ?? '', '');
  cleanUp();
  exit(code);
}
