/**
 * Labs (`kind: lab`, scenarios/labs/) in the CLI. `faultlab run` runs them on the shared harness and prints
 * them in the look of every run. A lab has no Runner and no inventory database, so the options that choose
 * or keep those (--runner, --storage, --keep-db) are refused, never ignored; `explore` and `grade`, which
 * exist for runners, refuse labs. Input a lab cannot run (an unknown dependency, a report for a call never
 * started, an unknown error code) is bad input, at the file, line and column of the offending field.
 */
import { t, word, type Lang } from '../render/words/index.js';
import { toViolation } from '../render/renderJson.js';
import { renderLabRun, runLab, ScenarioInputError, type LabRun, type LabScenario } from '../labs/index.js';
import type { Style } from '../render/style.js';
import { ScenarioError } from '../scenario/ScenarioError.js';
import type { Loaded } from '../scenario/load.js';
import type { Scenario } from '../scenario/types.js';
import { problemInFile } from '../scenario/yamlSource.js';
import { UsageError } from './io.js';

/** The races on PostgreSQL (raceRun.ts): a kind of their own among the labs. */
export const RACE_KIND = 'postgres_race';

export type LoadedLab = Extract<Loaded, { type: 'other' }>;

export interface LabResult {
  run: LabRun;
  passed: boolean;
  firstProblem?: string;
  json: unknown;
  render(style: Style, position: string, width?: number): string;
}

export function runLabScenario(lang: Lang, loaded: LoadedLab, seed: number): LabResult {
  let run: LabRun;
  try {
    run = runLab(loaded.value as LabScenario, { seed });
  } catch (error) {
    if (error instanceof ScenarioInputError) throw new ScenarioError([problemInFile(loaded.readFrom, loaded.file, error.path, error.said)]);
    throw error;
  }
  const failed = run.checks.find((c) => !c.passed);
  return {
    run,
    passed: run.passed,
    ...(failed ? { firstProblem: word(lang, failed.message) } : {}),
    json: { id: run.id, kind: 'lab', experiment: run.experiment, passed: run.passed, figures: run.figures, violations: run.checks.filter((c) => !c.passed).map((c) => toViolation(lang, c)) },
    render: (style, position, width) => renderLabRun(run, style, { lang, position, ...(width !== undefined ? { width } : {}) }),
  };
}

const named = (lang: Lang, labs: readonly LoadedLab[]): string => {
  const shown = labs.slice(0, 3).map((l) => l.file).join(', ');
  return labs.length > 3 ? t(lang, 'cli.labs.andMore', { shown, more: labs.length - 3 }) : shown;
};

/**
 * `faultlab run` with labs among its targets: the options that only a Runner's run can use are refused.
 * `given` holds each such option as typed (`--runner learner`).
 */
export function refuseRunnerOptions(lang: Lang, given: readonly string[], loaded: readonly Loaded[]): void {
  const labs = loaded.filter((l): l is LoadedLab => l.type === 'other');
  if (given.length === 0 || labs.length === 0) return;
  throw new UsageError(t(lang, labs.length === 1 ? 'cli.labs.refuseOne' : 'cli.labs.refuseMany', { options: given.join(', '), labs: named(lang, labs) }), { showHelp: false });
}

/** `explore` and `grade` run Runners: a lab among their targets is refused, not skipped. */
export function runnerScenariosOnly(lang: Lang, loaded: readonly Loaded[], command: string): Scenario[] {
  const labs = loaded.filter((l): l is LoadedLab => l.type === 'other');
  // A race on PostgreSQL is explored by its own run: every interleaving of its two sessions.
  const race = labs.find((l) => l.kind === RACE_KIND);
  if (race !== undefined) throw new UsageError(t(lang, 'race.cli.notForCommand', { command, id: race.id, file: race.file }), { showHelp: false });
  if (labs.length > 0) {
    throw new UsageError(t(lang, labs.length === 1 ? 'cli.labs.notForOne' : 'cli.labs.notForMany', { command, labs: named(lang, labs) }), { showHelp: false });
  }
  return loaded.flatMap((l) => (l.type === 'runner' ? [l.scenario] : []));
}
