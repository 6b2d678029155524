/**
 * `faultlab run [SCENARIO…]`: run scenarios, print each trace and a summary (or one JSON document).
 * Exit 0 when every check held, 1 when any failed, 2 for bad input.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAll, type Loaded } from '../../scenario/load.js';
import type { RunResult } from '../../check/RunResult.js';
import { DB_FILES } from '../../core/storage.js';
import { checkTempDir } from '../../core/tempDir.js';
import { simulate } from '../../sim/simulate.js';
import { runToJson } from '../../render/renderJson.js';
import { renderSummary, summaryRow, type SummaryRow } from '../../render/renderSummary.js';
import { renderRun } from '../../render/renderText.js';
import { BadInputError, chooseStyle, EXIT, UsageError, type Io } from '../io.js';
import { interruptible, yieldToSignals } from '../interrupt.js';
import { claimKeepDir, type KeptFolder } from '../keepDb.js';
import { runLab } from '../labRun.js';
import { parseSeed, parseStorage, sharedHelp, sharedParse } from '../options.js';
import { loadRunnerOption } from '../runnerOption.js';
import { markConstructorErrors, RunnerConstructorError } from '../contain.js';
import { guardRunner } from '../../grade/guardRunner.js';
import { judge } from '../../check/RunResult.js';

export const RUN_HELP = `faultlab run [SCENARIO…] [options]
  Run scenarios (files, folders or ids; default: the 17 in scenarios/) and show each trace.
${sharedHelp('seed', 'runner')}
    --quiet           the summary only
${sharedHelp('json', 'no-color', 'storage')}
    --keep-db DIR     keep the run's SQLite databases in DIR to inspect them (one runner scenario; one run
                      at a time per DIR; with --storage memory their images are written there at the end)`;

export async function runCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...sharedParse('seed', 'runner', 'json', 'no-color', 'storage'),
      quiet: { type: 'boolean', short: 'q' },
      'keep-db': { type: 'string' },
    },
  });
  const style = chooseStyle(io, { noColor: values['no-color'], json: values.json });
  const seed = parseSeed(values.seed);
  const keepDb = values['keep-db'];
  // Kept databases are files: --keep-db without --storage means --storage file.
  const storage = keepDb !== undefined && values.storage === undefined ? 'file' : parseStorage(values.storage);
  const loaded = loadAll(positionals, { cwd: io.cwd });
  if (keepDb !== undefined) checkKeepable(loaded);
  if (storage === 'file' && keepDb === undefined) checkTempDir();
  const resolved = await loadRunnerOption(values.runner, io.cwd);
  let kept: KeptFolder | null = null;
  try {
    kept = keepDb !== undefined ? claimKeepDir(keepDb, io.cwd) : null;
    const { runner: runnerClass, tool, label, file } = resolved;
    // A learner's runner runs inside the grader's determinism guard here too, so a replay shows what the grade saw.
    const runnerFor = () => (file !== undefined ? markConstructorErrors(guardRunner(runnerClass)) : runnerClass);

    const rows: SummaryRow[] = [];
    const json: unknown[] = [];
    const total = loaded.length;
    for (const [index, one] of loaded.entries()) {
      if (index > 0) await yieldToSignals();
      const position = `${index + 1}/${total}`;
      if (one.type === 'runner') {
        const options = { runner: runnerFor(), seed, storage, ...(tool ? { tool } : {}), ...(kept ? { keepDir: kept.dir } : {}) };
        const outcome = interruptible(() => runOutside(() => judge(simulate(one.scenario, options))));
        if ('run' in outcome) {
          const run: RunResult = outcome.run;
          rows.push(summaryRow(run));
          if (values.json) json.push(runToJson(run));
          else if (!values.quiet) io.stdout.write(renderRun(run, style, { position }) + '\n');
        } else {
          // The runner's code failed where the harness cannot catch it (its constructor): a failed run, not a crash.
          const message = `the runner failed outside step(): ${outcome.failure}`;
          rows.push({ id: one.scenario.id, status: 'runner_error', calls: '-', ledger: '-', stock: '', passed: false, broken: false, firstProblem: message });
          if (values.json) json.push({ id: one.scenario.id, status: 'runner_error', passed: false, violations: [{ check: 'runner_error', expected: 'no exception', actual: outcome.failure, message }] });
          else if (!values.quiet) io.stdout.write(style.c.red(`━━ ${position} ${one.scenario.id} ━ ${message}`) + '\n\n');
        }
      } else {
        const result = interruptible(() => runLab(one, seed));
        rows.push({ id: one.id, status: result.status, calls: '-', ledger: '-', stock: '', passed: result.passed, broken: false, ...(result.firstProblem ? { firstProblem: result.firstProblem } : {}) });
        if (values.json) json.push(result.json);
        else if (!values.quiet) io.stdout.write(result.render(style, position) + '\n');
      }
    }

    const passed = rows.filter((r) => r.passed).length;
    const failed = rows.length - passed;
    if (values.json) {
      io.stdout.write(JSON.stringify({ seed, runner: label, scenarios: json, passed, failed }, null, 2) + '\n');
    } else {
      io.stdout.write(renderSummary(rows, style, `(seed ${seed}, ${label} runner${keptNote(kept, keepDb)})`));
      if (positionals.length === 0) {
        io.stdout.write(style.c.dim('  next: lessons/01-intents-attempts-effects.md · npx faultlab run scenarios/pillars (the durability pillars) · npm run grade (the exercise)') + '\n');
      }
    }
    return failed === 0 ? EXIT.ok : EXIT.failed;
  } finally {
    resolved.containment?.release();
    kept?.release();
  }
}

/** --keep-db keeps a runner scenario's two databases; anything else has none to keep. */
function checkKeepable(loaded: Loaded[]): void {
  if (loaded.length !== 1) throw new UsageError(`--keep-db needs exactly one scenario (got ${loaded.length})`);
  const [one] = loaded;
  if (one!.type !== 'runner') throw new BadInputError(`--keep-db: ${one!.id} is a ${one!.kind} scenario, which has no run databases to keep (--keep-db is for runner scenarios)`);
}

/** Only what is really there is claimed: both database files in the kept folder. */
function keptNote(kept: KeptFolder | null, given: string | undefined): string {
  if (kept === null) return '';
  const written = Object.values(DB_FILES).every((name) => existsSync(join(kept.dir, name)));
  return written ? ` · databases kept in ${given}: ${Object.values(DB_FILES).join(', ')}` : ` · no database was written to ${given}`;
}

/** A runner file's constructor failing ends its run as a failure; faultlab's own errors still throw. */
function runOutside(work: () => RunResult): { run: RunResult } | { failure: string } {
  try {
    return { run: work() };
  } catch (error) {
    if (error instanceof RunnerConstructorError) return { failure: `its constructor threw ${error.message}` };
    throw error;
  }
}
