/**
 * The only place that touches the terminal, the environment and exit codes. Every command gets an Io and
 * returns an exit code: 0 every check held, 1 a check failed, 2 bad input.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/paths.js';
import { RunnerLoadError } from '../runner/load.js';
import { ScenarioError } from '../scenario/ScenarioError.js';
import { dlqCommand, DLQ_HELP } from './commands/dlq.js';
import { exploreCommand, EXPLORE_HELP } from './commands/explore.js';
import { gradeCommand, GRADE_HELP } from './commands/grade.js';
import { listCommand, LIST_HELP } from './commands/list.js';
import { runCommand, RUN_HELP } from './commands/run.js';
import { EXIT, processIo, UsageError, type Io } from './io.js';

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
    'Exit codes: 0 every check held · 1 a check failed · 2 bad input (unreadable or invalid scenario, bad option).',
    'Lessons: lessons/ · the exercise: src/runner/LearnerRunner.ts',
  ].join('\n');
}

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    (name === undefined ? io.stderr : io.stdout).write(usage() + '\n');
    return name === undefined ? EXIT.badInput : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
    io.stdout.write(`faultlab ${pkg.version}\n`);
    return EXIT.ok;
  }
  const command = commands.get(name);
  if (command === undefined) {
    io.stderr.write(`faultlab: unknown command ${JSON.stringify(name)}\n\n${usage()}\n`);
    return EXIT.badInput;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(command.help + '\n');
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof ScenarioError) {
      io.stderr.write(`${error.message}\nfaultlab: ${error.problems.length} problem(s) in the scenario files; nothing was run\n`);
      return EXIT.badInput;
    }
    if (error instanceof RunnerLoadError) {
      io.stderr.write(`faultlab ${name}: --runner ${error.message}\n`);
      return EXIT.badInput;
    }
    if (error instanceof UsageError && !error.showHelp) {
      io.stderr.write(`faultlab ${name}: ${error.message}\n`);
      return EXIT.badInput;
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr.write(`faultlab ${name}: ${(error as Error).message}\n\n${command.help}\n`);
      return EXIT.badInput;
    }
    throw error;
  }
}
