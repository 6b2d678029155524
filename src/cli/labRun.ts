/**
 * A lab scenario (scenarios/pillars/ with `kind: pillar`) in `faultlab run`: run by the labs' engine, shown
 * by its renderer, judged by its figures. Input the schema cannot judge (a dependency that does not exist,
 * a report for a call never started) is bad input: exit 2, like a schema error.
 */
import { toViolation } from '../check/types.js';
import { ConfigError } from '../durability/errors.js';
import { renderPillarRun, runPillarScenario, ScenarioInputError, type PillarRun, type PillarScenario } from '../labs/index.js';
import type { Style } from '../render/style.js';
import { ScenarioError } from '../scenario/ScenarioError.js';
import type { Loaded } from '../scenario/load.js';

export interface LabResult {
  run: PillarRun;
  status: string;
  passed: boolean;
  firstProblem?: string;
  json: unknown;
  render(style: Style, position: string): string;
}

export function runLab(loaded: Extract<Loaded, { type: 'other' }>, seed: number): LabResult {
  let run: PillarRun;
  try {
    run = runPillarScenario(loaded.value as PillarScenario, { seed });
  } catch (error) {
    if (error instanceof ScenarioInputError || error instanceof ConfigError) {
      throw new ScenarioError([{ file: loaded.file, line: 0, col: 0, field: '', message: error.message }]);
    }
    throw error;
  }
  const failed = run.checks.find((c) => !c.passed);
  return {
    run,
    status: run.passed ? 'passed' : 'failed',
    passed: run.passed,
    ...(failed ? { firstProblem: failed.message } : {}),
    json: { id: run.id, kind: 'pillar', passed: run.passed, figures: run.figures, violations: run.checks.filter((c) => !c.passed).map(toViolation) },
    render(style, position) {
      const head = `━━ ${position} ${run.id} `; // the lab's trace opens with its own title
      return `${style.c.bold(head + '━'.repeat(Math.max(3, 100 - head.length)))}\n${renderPillarRun(run, { color: style.color })}`;
    },
  };
}
