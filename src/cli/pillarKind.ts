/**
 * `kind: pillar` scenarios (scenarios/pillars/) run by the durability pillars' own engine and print its
 * trace; `run` stays ignorant of what a pillar is. Input the schema cannot judge (a dependency that does
 * not exist, a report for a call never started) is bad input: exit 2, like a schema error.
 */
import type { Check } from '../check/types.js';
import { toViolation } from '../check/types.js';
import { ConfigError } from '../durability/errors.js';
import { renderPillarRun, runPillarScenario, ScenarioInputError, type PillarRun, type PillarScenario } from '../durability/scenarios/index.js';
import { ScenarioError } from '../scenario/ScenarioError.js';
import type { KindResult, KindRunner } from './kinds.js';

interface PillarResult extends KindResult {
  run: PillarRun;
}

export const pillarKind: KindRunner = {
  run(value, { seed, file }) {
    let run: PillarRun;
    try {
      run = runPillarScenario(value as PillarScenario, { seed });
    } catch (error) {
      if (error instanceof ScenarioInputError || error instanceof ConfigError) {
        throw new ScenarioError([{ file, line: 0, col: 0, field: '', message: error.message }]);
      }
      throw error;
    }
    const failed: Check | undefined = run.checks.find((c) => !c.passed);
    const result: PillarResult = {
      run,
      status: run.passed ? 'passed' : 'failed',
      passed: run.passed,
      ...(failed ? { firstProblem: failed.message } : {}),
      json: { id: run.id, kind: 'pillar', passed: run.passed, figures: run.figures, violations: run.checks.filter((c) => !c.passed).map(toViolation) },
    };
    return result;
  },
  render(result, style, position) {
    const run = (result as PillarResult).run;
    const head = `━━ ${position} ${run.id} `; // the pillar trace opens with its own title
    return `${style.c.bold(head + '━'.repeat(Math.max(3, 100 - head.length)))}\n${renderPillarRun(run, { color: style.color })}`;
  },
};
