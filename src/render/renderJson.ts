/** The `--json` document: the figures of each run and every failed check, nothing else. */
import { durabilityFigures, totalCalls, type DurabilityFigures } from '../check/durabilityFigures.js';
import type { Check } from '../check/types.js';
import { word, type Lang } from './words/index.js';
import { isMessage, type Message, type Params } from '../core/message.js';
import type { RunResult } from '../check/RunResult.js';
import { purgedReceipts } from '../check/limits.js';
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
  /** docs/spec.md §13: receipts the purge deleted, for a scenario with a retention block. */
  purged?: number;
  /** docs/spec.md §14: charges the remote service made, and outbox messages left unsent, for a scenario with a remote. */
  charges?: number;
  unsent?: number;
  passed: boolean;
  violations: Violation[];
}

/**
 * The shape `--json` prints for a failed check: what it expected and found, its message in the language of
 * the command, and the message as data — its code and parameters, the same in every language — for a script
 * to read without parsing a sentence.
 */
export interface Violation extends MessageJson {
  check: string;
  expected: unknown;
  actual: unknown;
}

/** A message as `--json` carries it: in words (`message`), and as data (`code`, `params`; a parameter that is a message is `{ code, params }`). */
export interface MessageJson {
  message: string;
  code: string;
  params: Params;
}

export function messageJson(lang: Lang, said: Message): MessageJson {
  return { message: word(lang, said), code: said.code, params: said.params };
}

/**
 * What a check expected and found is data, the same in every language: a value that is a message (what a runner
 * threw, when faultlab made the error) is given in English, as an id would be.
 */
export function toViolation(lang: Lang, check: Check): Violation {
  return { check: check.id, expected: asData(check.expected), actual: asData(check.actual), ...messageJson(lang, check.message) };
}

const asData = (value: unknown): unknown => (isMessage(value) ? word('en', value) : value);

export function runToJson(lang: Lang, run: RunResult): ScenarioJson {
  return {
    id: run.scenario.id,
    status: run.state?.status ?? null,
    calls: totalCalls(run),
    ledger: run.db.ledger.length,
    stock: Object.fromEntries(run.db.items.map((row) => [row.item_id, row.available])),
    crashes: run.crashes,
    ...(run.scenario.durability !== undefined ? { durability: durabilityFigures(run) } : {}),
    ...(run.workers !== undefined ? { workers: workerFigures(run) } : {}),
    ...(run.scenario.retention !== undefined ? { purged: purgedReceipts(run).length } : {}),
    ...(run.scenario.remote !== undefined
      ? { charges: run.db.charges?.length ?? 0, unsent: (run.db.outbox ?? []).filter((row) => row.outcome === null || row.outcome === 'gave_up').length }
      : {}),
    passed: run.passed,
    violations: run.checks.filter((check) => !check.passed).map((check) => toViolation(lang, check)),
  };
}
