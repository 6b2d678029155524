import { expectationChecks } from '../check/figures.js';
import { ConfigError } from '../durability/errors.js';
import { backoffExperiment } from './experiments/backoff.js';
import { breakerExperiment } from './experiments/breaker.js';
import { checkpointLineageExperiment } from './experiments/checkpointLineage.js';
import { herdExperiment } from './experiments/herd.js';
import { idempotencyExperiment } from './experiments/idempotency.js';
import { raceExperiment } from './experiments/race.js';
import type { Experiment } from './experiments/types.js';
import { LabContext } from './LabContext.js';
import { fromConfigError, ScenarioInputError } from './ScenarioInputError.js';
import type { LabRun, LabScenario } from './types.js';
import { msg } from '../render/words/index.js';

/**
 * The labs: what is not runner-shaped — a herd of clients, a backoff table, two connections racing, a
 * breaker walked call by call, the checkpoint API — run on the shared harness: the one clock and rng
 * (src/core), the one crash model (src/core/storage), the pillars themselves (src/durability), and the
 * check module for the figures in `expect:` (src/check/figures). A run is synchronous and pure apart
 * from its own temporary SQLite databases.
 */
export const EXPERIMENTS: Readonly<Record<string, Experiment>> = {
  herd: herdExperiment,
  backoff: backoffExperiment,
  race: raceExperiment,
  breaker: breakerExperiment,
  checkpoint_lineage: checkpointLineageExperiment,
  idempotency: idempotencyExperiment,
};

/** Throws ScenarioInputError (with the path of the offending field) for a lab that cannot run. */
export function runLab(scenario: LabScenario, options: { seed: number }): LabRun {
  const experiment = EXPERIMENTS[String(scenario.experiment)];
  if (!experiment) {
    throw new ScenarioInputError(msg('lab.input.experiment', { id: scenario.id, known: Object.keys(EXPERIMENTS).join(', '), got: String(JSON.stringify(scenario.experiment)) }), ['experiment']);
  }
  const expect = scenario.expect;
  if (expect === null || typeof expect !== 'object' || Array.isArray(expect)) throw new ScenarioInputError(msg('lab.input.expect', { id: scenario.id }), ['expect']);
  let ctx: LabContext;
  try {
    ctx = new LabContext(scenario, options.seed);
  } catch (error) {
    // a `config:` override out of range, named by its field (config.circuit_breaker.dependencies.x.…)
    if (error instanceof ConfigError) throw fromConfigError(error);
    throw error;
  }
  const figures = experiment.run(ctx);
  const checks = expectationChecks(expect as Record<string, unknown>, figures, experiment.meanings());
  return {
    id: scenario.id,
    title: scenario.title,
    explain: scenario.explain,
    ...(scenario.zh !== undefined ? { zh: scenario.zh } : {}),
    experiment: scenario.experiment,
    seed: options.seed,
    events: ctx.events,
    checks,
    figures,
    passed: checks.every((c) => c.passed),
  };
}
