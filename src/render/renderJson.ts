/** The `--json` document: the figures of each run and every failed check, nothing else. */
import { durabilityFigures, totalCalls, type DurabilityFigures } from '../check/durabilityFigures.js';
import type { Check } from '../check/types.js';
import { word } from '../core/i18n/index.js';
import type { RunResult } from '../check/RunResult.js';

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
  passed: boolean;
  violations: Violation[];
}

/** The shape `--json` prints for a failed check. */
export interface Violation {
  check: string;
  expected: unknown;
  actual: unknown;
  message: string;
}

export function toViolation(check: Check): Violation {
  return { check: check.id, expected: check.expected, actual: check.actual, message: word(check.message) };
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
    passed: run.passed,
    violations: run.checks.filter((check) => !check.passed).map(toViolation),
  };
}
