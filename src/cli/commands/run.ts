/**
 * `faultlab run [SCENARIO…]`: run scenarios, print each trace and a summary (or one JSON document).
 * Exit 0 when every check held, 1 when any failed, 2 for bad input.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SEED } from '../../defaults.js';
import { loadAll } from '../../scenario/load.js';
import type { RunResult } from '../../sim/RunResult.js';
import { simulate } from '../../sim/simulate.js';
import type { StorageKind } from '../../sim/storage.js';
import { runToJson } from '../../trace/renderJson.js';
import { renderSummary, summaryRow, type SummaryRow } from '../../trace/renderSummary.js';
import { renderRun } from '../../trace/renderText.js';
import { chooseStyle, EXIT, UsageError, type Io } from '../io.js';
import { otherKindRunners } from '../kinds.js';
import { parseSeed } from '../options.js';
import { guardRunner } from '../../grade/guardRunner.js';
import { resolveRunner } from '../resolveRunner.js';

export const RUN_HELP = `faultlab run [SCENARIO…] [options]
  Run scenarios (files, folders or ids; default: the 17 in scenarios/) and show each trace.
    --seed N          seed for the virtual clock and rng (default ${DEFAULT_SEED}); same seed, same trace
    --runner NAME     reference (default), learner (src/runner/LearnerRunner.ts), mutant:NAME (a deliberately
                      broken runner or store, see src/mutants/catalogue.ts), or a .ts/.js file exporting a runner
    --quiet           the summary only
    --json            one JSON document on stdout, nothing else
    --no-color        plain text (also NO_COLOR=1, and whenever stdout is not a terminal)
    --storage KIND    file (default: SQLite files in a temporary folder) or memory
    --keep-db DIR     keep the SQLite files in DIR to inspect them (one scenario only)`;

export async function runCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      seed: { type: 'string' },
      runner: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      json: { type: 'boolean' },
      'no-color': { type: 'boolean' },
      storage: { type: 'string' },
      'keep-db': { type: 'string' },
    },
  });
  const style = chooseStyle(io, { noColor: values['no-color'], json: values.json });
  const seed = parseSeed(values.seed);
  const storage = (values.storage ?? 'file') as StorageKind;
  if (storage !== 'file' && storage !== 'memory') throw new UsageError(`--storage must be file or memory, got ${values.storage}`);
  const loaded = loadAll(positionals);
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
      const run = simulate(one.scenario, { runner: runnerFor(), seed, storage, ...(tool ? { tool } : {}), ...(values['keep-db'] ? { keepDir: values['keep-db'] } : {}) });
      runs.push(run);
      rows.push(summaryRow(run));
      if (values.json) json.push(runToJson(run));
      else if (!values.quiet) io.stdout.write(renderRun(run, style, { position }) + '\n');
    } else {
      const kind = otherKindRunners.get(one.kind);
      if (kind === undefined) throw new UsageError(`${one.file}: no runner for scenario kind ${one.kind}`);
      const result = kind.run(one.value, { seed, file: one.file });
      rows.push({ id: one.id, status: result.status, calls: '-', ledger: '-', stock: '', passed: result.passed, broken: false, ...(result.firstProblem ? { firstProblem: result.firstProblem } : {}) });
      if (values.json) json.push(result.json);
      else if (!values.quiet) io.stdout.write(kind.render(result, style, position) + '\n');
    }
  });

  const passed = rows.filter((r) => r.passed).length;
  const failed = rows.length - passed;
  if (values.json) {
    io.stdout.write(JSON.stringify({ seed, runner: label, scenarios: json, passed, failed }, null, 2) + '\n');
  } else {
    const keep = values['keep-db'] ? ` · databases kept in ${values['keep-db']}` : '';
    io.stdout.write(renderSummary(rows, style, `(seed ${seed}, ${label} runner${keep})`));
    if (positionals.length === 0) {
      io.stdout.write(style.c.dim('  next: lessons/01-intents-attempts-effects.md · npx faultlab run scenarios/pillars (the durability pillars) · npm run grade (the exercise)') + '\n');
    }
  }
  return failed === 0 ? EXIT.ok : EXIT.failed;
}
