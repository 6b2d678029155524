/**
 * `faultlab run [SCENARIO…]`: run scenarios, print each trace and a summary (or one JSON document).
 * Exit 0 when every check held, 1 when any failed, 2 for bad input.
 */
import { parseArgs } from 'node:util';
import { loadAll } from '../../scenario/load.js';
import type { RunResult } from '../../check/RunResult.js';
import { simulate } from '../../sim/simulate.js';
import { runToJson } from '../../render/renderJson.js';
import { renderSummary, summaryRow, type SummaryRow } from '../../render/renderSummary.js';
import { renderRun } from '../../render/renderText.js';
import { chooseStyle, EXIT, UsageError, type Io } from '../io.js';
import { refuseRunnerOptions, runLabScenario } from '../labRun.js';
import { parseSeed, parseStorage, sharedHelp, sharedParse } from '../options.js';
import { guardRunner } from '../../grade/guardRunner.js';
import { resolveRunner } from '../../sim/target.js';
import { judge } from '../../check/RunResult.js';

export const RUN_HELP = `faultlab run [SCENARIO…] [options]
  Run scenarios (files, folders or ids; default: the 17 in scenarios/) and show each trace.
${sharedHelp('seed', 'runner')}
    --quiet           the summary only
${sharedHelp('json', 'no-color', 'storage')}
    --keep-db DIR     keep the SQLite files in DIR to inspect them (one scenario; implies --storage file)`;

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
  // Kept databases are files: --keep-db without --storage means --storage file.
  const storage = values['keep-db'] !== undefined && values.storage === undefined ? 'file' : parseStorage(values.storage);
  const loaded = loadAll(positionals, { cwd: io.cwd });
  refuseRunnerOptions(
    [
      ...(values.runner !== undefined ? [`--runner ${values.runner}`] : []),
      ...(values.storage !== undefined ? [`--storage ${values.storage}`] : []),
      ...(values['keep-db'] !== undefined ? [`--keep-db ${values['keep-db']}`] : []),
    ],
    loaded,
  );
  if (values['keep-db'] !== undefined && loaded.length !== 1) throw new UsageError('--keep-db needs exactly one scenario');
  const { runner: runnerClass, tool, label, file } = await resolveRunner(values.runner, io.cwd);
  // A learner's runner runs inside the grader's determinism guard here too, so a replay shows what the grade saw.
  const runnerFor = () => (file !== undefined ? guardRunner(runnerClass) : runnerClass);

  const rows: SummaryRow[] = [];
  const json: unknown[] = [];
  const runs: RunResult[] = [];
  const total = loaded.length;
  loaded.forEach((one, index) => {
    const position = `${index + 1}/${total}`;
    if (one.type === 'runner') {
      const run = judge(simulate(one.scenario, { runner: runnerFor(), seed, storage, ...(tool ? { tool } : {}), ...(values['keep-db'] ? { keepDir: values['keep-db'] } : {}) }));
      runs.push(run);
      rows.push(summaryRow(run));
      if (values.json) json.push(runToJson(run));
      else if (!values.quiet) io.stdout.write(renderRun(run, style, { position }) + '\n');
    } else {
      const result = runLabScenario(one, seed);
      rows.push({ id: one.id, status: 'lab', calls: '-', ledger: '-', stock: '', passed: result.passed, broken: false, ...(result.firstProblem ? { firstProblem: result.firstProblem } : {}) });
      if (values.json) json.push(result.json);
      else if (!values.quiet) io.stdout.write(result.render(style, position) + '\n');
    }
  });

  const passed = rows.filter((r) => r.passed).length;
  const failed = rows.length - passed;
  // Labs run without a Runner: the footer and the JSON name a runner only when one ran.
  const anyRunner = runs.length > 0;
  if (values.json) {
    io.stdout.write(JSON.stringify({ seed, runner: anyRunner ? label : null, scenarios: json, passed, failed }, null, 2) + '\n');
  } else {
    const keep = values['keep-db'] ? ` · databases kept in ${values['keep-db']}` : '';
    const who = !anyRunner ? 'labs: no runner' : runs.length < rows.length ? `${label} runner; labs: no runner` : `${label} runner`;
    io.stdout.write(renderSummary(rows, style, `(seed ${seed}, ${who}${keep})`));
    if (positionals.length === 0) {
      io.stdout.write(style.c.dim('  next: lessons/01-intents-attempts-effects.md · npx faultlab run scenarios/labs (the durability labs) · npm run grade (the exercise)') + '\n');
    }
  }
  return failed === 0 ? EXIT.ok : EXIT.failed;
}
