/** The `--json` document: the figures of each run and every failed check, nothing else. */
import { durabilityFigures, totalCalls, type DurabilityFigures } from '../check/durabilityFigures.js';
import { toViolation, type Violation } from '../check/types.js';
import type { RunResult } from '../check/RunResult.js';
import { workerFigures, type WorkerFigures } from '../check/workerFigures.js';

export interface ScenarioJson {
  id: string;
  status: string | null;
  calls: number | null;
  /** Number of ledger rows at the end. */
  ledger: number;
  /** Final `available` per item. */
  stock: Record<string, number>;
  /** Crashes recovered, each with a new runner built from the event log. */
  crashes: number;
  /** The pillars' figures, for a scenario with a durability block. */
  durability?: DurabilityFigures;
  /** The queue's figures, for a scenario with a workers block. */
  workers?: WorkerFigures;
  passed: boolean;
  violations: Violation[];
}

export function runToJson(run: RunResult): ScenarioJson {
  return {
    id: run.scenario.id,
    status: run.state?.status ?? null,
    calls: totalCalls(run),
    ledger: run.db.ledger.length,
    stock: Object.fromEntries(run.db.items.map((row) => [row.item_id, row.available])),
    crashes: run.crashes,
    ...(run.scenario.durability !== undefined ? { durability: durabilityFigures(run) } : {}),
    ...(run.workers !== undefined ? { workers: workerFigures(run) } : {}),
    passed: run.passed,
    violations: run.checks.filter((check) => !check.passed).map(toViolation),
  };
}
