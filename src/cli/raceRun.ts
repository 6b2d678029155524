/**
 * The races on PostgreSQL (`kind: postgres_race`, scenarios/postgres/) in `faultlab run`: run on the command's
 * server (`--db postgres`, or a URL), printed in the look of a lab. Without `--db postgres…` they are refused,
 * saying how to run them; the options only a runner's run can use are refused as for any lab (labRun.ts). The
 * races' code loads the PostgreSQL client, so it is imported only when a race runs.
 */
import { t, word, type Lang } from '../render/words/index.js';
import { toViolation } from '../render/renderJson.js';
import { ScenarioInputError } from '../labs/ScenarioInputError.js';
import { renderRaceRun } from '../labs/races/renderRace.js';
import type { RaceScenario } from '../labs/races/types.js';
import { ScenarioError } from '../scenario/ScenarioError.js';
import type { Loaded } from '../scenario/load.js';
import { problemInFile } from '../scenario/yamlSource.js';
import { BadInputError } from './io.js';
import { RACE_KIND, type LabResult, type LoadedLab } from './labRun.js';

export function isRace(one: Loaded): boolean {
  return one.type === 'other' && one.kind === RACE_KIND;
}

/** Races need a server: on SQLite, the first is refused before anything runs. */
export function refuseRacesOnSqlite(lang: Lang, loaded: readonly Loaded[]): void {
  const first = loaded.find(isRace);
  if (first?.type === 'other') throw new BadInputError(t(lang, 'race.cli.needsPostgres', { id: first.id }));
}

export async function runRaceScenario(lang: Lang, loaded: LoadedLab, url: string): Promise<Omit<LabResult, 'run'>> {
  const { runRace } = await import('../labs/races/runRace.js');
  let run;
  try {
    run = await runRace(loaded.value as RaceScenario, url);
  } catch (error) {
    if (error instanceof ScenarioInputError) throw new ScenarioError([problemInFile(loaded.readFrom, loaded.file, error.path, error.said)]);
    throw error;
  }
  const failed = run.checks.find((c) => !c.passed);
  return {
    passed: run.passed,
    ...(failed ? { firstProblem: word(lang, failed.message) } : {}),
    json: { id: run.id, kind: RACE_KIND, protocol: run.protocol, passed: run.passed, figures: run.figures, violations: run.checks.filter((c) => !c.passed).map((c) => toViolation(lang, c)) },
    render: (style, position, width) => renderRaceRun(run, style, { lang, position, ...(width !== undefined ? { width } : {}) }),
  };
}
