import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunContext, ScenarioInputError } from './context.js';
import { expectationChecks } from '../check/figures.js';
import { backoffExperiment } from './experiments/backoff.js';
import { breakerExperiment } from './experiments/breaker.js';
import { checkpointLineageExperiment } from './experiments/checkpointLineage.js';
import { herdExperiment } from './experiments/herd.js';
import { layerExperiment } from './experiments/layer.js';
import { raceExperiment } from './experiments/race.js';
import { resumableTaskExperiment } from './experiments/resumableTask.js';
import type { Experiment } from './experiments/types.js';
import type { PillarRun, PillarScenario } from './types.js';

/**
 * The pillar scenario engine: `kind: pillar` documents (scenarios/pillars/*.yaml) in, a PillarRun out.
 * The CLI loads and schema-checks the YAML, calls runPillarScenario, and prints renderPillarRun.
 * A run is synchronous and pure apart from its own temporary SQLite databases.
 */

export type { PillarRun, PillarScenario, PillarTraceEvent, ScenarioEvent } from './types.js';
export { renderPillarRun } from './render.js';
export { ScenarioInputError } from './context.js';

export const EXPERIMENTS: Readonly<Record<string, Experiment>> = {
  breaker: breakerExperiment,
  backoff: backoffExperiment,
  herd: herdExperiment,
  layer: layerExperiment,
  race: raceExperiment,
  resumable_task: resumableTaskExperiment,
  checkpoint_lineage: checkpointLineageExperiment,
};

export function runPillarScenario(scenario: PillarScenario, options: { seed: number }): PillarRun {
  const experiment = EXPERIMENTS[String(scenario.experiment)];
  if (!experiment) {
    throw new ScenarioInputError(`${scenario.id}: experiment must be one of ${Object.keys(EXPERIMENTS).join(', ')}, got ${JSON.stringify(scenario.experiment)}`);
  }
  const expect = scenario.expect;
  if (expect === null || typeof expect !== 'object' || Array.isArray(expect)) throw new ScenarioInputError(`${scenario.id}: expect must be a mapping of figure: value`);
  const ctx = new RunContext(scenario, options.seed);
  const figures = experiment.run(ctx);
  const checks = expectationChecks(expect as Record<string, unknown>, figures, experiment.meanings);
  return {
    id: scenario.id,
    title: scenario.title,
    explain: scenario.explain,
    seed: options.seed,
    events: ctx.events,
    checks,
    figures,
    passed: checks.every((c) => c.passed),
  };
}

/**
 * scenarios/pillars/pillar.schema.json in the nearest folder above this module (source or build) that
 * has one; failing that, where it belongs in the package root (the nearest package.json).
 */
function findSchema(): string {
  const relative = join('scenarios', 'pillars', 'pillar.schema.json');
  let packageRoot: string | undefined;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, relative))) return join(dir, relative);
    if (packageRoot === undefined && existsSync(join(dir, 'package.json'))) packageRoot = dir;
    if (dirname(dir) === dir) return join(packageRoot ?? dir, relative);
  }
}

/** Absolute path of scenarios/pillars/pillar.schema.json. */
export const pillarScenarioSchemaPath: string = findSchema();
