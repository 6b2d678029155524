/** The `--json` document: the figures of each run and every failed check, nothing else. */
import { toViolation, type Violation } from '../check/types.js';
import type { RunResult } from '../check/RunResult.js';

export interface ScenarioJson {
  id: string;
  status: string | null;
  calls: number | null;
  /** Number of ledger rows at the end. */
  ledger: number;
  /** Final `available` per item. */
  stock: Record<string, number>;
  /** Crashes recovered (a new runner each time). */
  crashes: number;
  passed: boolean;
  violations: Violation[];
}

export function runToJson(run: RunResult): ScenarioJson {
  return {
    id: run.scenario.id,
    status: run.state?.status ?? null,
    calls: run.state?.calls ?? null,
    ledger: run.db.ledger.length,
    stock: Object.fromEntries(run.db.items.map((row) => [row.item_id, row.available])),
    crashes: run.crashes,
    passed: run.passed,
    violations: run.checks.filter((check) => !check.passed).map(toViolation),
  };
}
