/** The `--json` document: the figures of each run and every failed check, nothing else. */
import { durabilityFigures, totalCalls, type DurabilityFigures } from '../check/durabilityFigures.js';
import { toViolation, type Violation } from '../check/types.js';
import type { RunResult } from '../check/RunResult.js';
import { purgedReceipts } from '../check/limits.js';

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
  /** docs/spec.md §13: receipts the purge deleted, for a scenario with a retention block. */
  purged?: number;
  /** docs/spec.md §14: charges the remote service made, and outbox messages left unsent, for a scenario with a remote. */
  charges?: number;
  unsent?: number;
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
    ...(run.scenario.retention !== undefined ? { purged: purgedReceipts(run).length } : {}),
    ...(run.scenario.remote !== undefined
      ? { charges: run.db.charges?.length ?? 0, unsent: (run.db.outbox ?? []).filter((row) => row.outcome === null || row.outcome === 'gave_up').length }
      : {}),
    passed: run.passed,
    violations: run.checks.filter((check) => !check.passed).map(toViolation),
  };
}
