/**
 * A scenario's own expected figures (status, calls, ledger rows, stock, pending, observations), checked on
 * top of the invariants. Each failure message says what the figure means, so a learner knows where to look.
 */
import type { Run } from '../sim/Run.js';
import { durabilityFigures, totalCalls } from './durabilityFigures.js';
import type { Check } from './types.js';

const MEANING = {
  status: 'the terminal status of the run',
  calls: 'every attempt is one call, retries included',
  ledger: 'one ledger row per effect, all tasks counted',
  stock: 'what is left on the shelf',
  pending: 'the action still pending at the end, kept while its outcome is unknown',
  observations: 'the tools whose results the runner recorded',
  crashes: 'crashes recovered, each by a new runner from the event log',
  'durability.backoff_waits': 'how many times the runner waited on the virtual clock before a retry',
  'durability.backoff_ms': 'every backoff wait before a retry, in virtual ms — the same seed gives the same waits',
  'durability.breaker': "the breaker's transitions, in order",
  'durability.refused_by_breaker': 'attempts the open breaker refused before the wire (each still one call and one attempt)',
  'durability.dlq': 'the status of every dead-letter record at the end',
  'durability.replays': 'dead-letter records replayed through a fresh runner, with the same key',
} as const;

function check(id: keyof typeof MEANING, expected: unknown, actual: unknown): Check {
  const passed = JSON.stringify(expected) === JSON.stringify(actual);
  return {
    id,
    kind: 'expectation',
    title: id,
    passed,
    expected,
    actual,
    message: passed
      ? `${id} is ${JSON.stringify(actual)} as expected`
      : `${id}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)} — ${MEANING[id]}`,
  };
}

export function checkExpectations(run: Run): Check[] {
  const expect = run.scenario.expect;
  const state = run.state;
  const checks: Check[] = [];
  if (expect.status !== undefined) checks.push(check('status', expect.status, state?.status ?? null));
  if (expect.calls !== undefined) checks.push(check('calls', expect.calls, totalCalls(run)));
  if (expect.ledger !== undefined) checks.push(check('ledger', expect.ledger, run.db.ledger.length));
  if (expect.stock !== undefined) {
    for (const [item, available] of Object.entries(expect.stock)) {
      const row = run.db.items.find((r) => r.item_id === item);
      const c = check('stock', available, row?.available ?? null);
      checks.push({ ...c, id: `stock.${item}`, title: `stock ${item}`, message: c.message.replace(/^stock/, `stock ${item}`) });
    }
  }
  if (expect.pending !== undefined) checks.push(check('pending', expect.pending, state?.pending?.name ?? null));
  if (expect.observations !== undefined) {
    checks.push(check('observations', [...expect.observations].sort(), Object.keys(state?.observations ?? {}).sort()));
  }
  if (expect.crashes !== undefined) checks.push(check('crashes', expect.crashes, run.crashes));
  if (expect.durability !== undefined) {
    const figures = durabilityFigures(run);
    for (const [name, expected] of Object.entries(expect.durability)) {
      const id = `durability.${name}` as keyof typeof MEANING;
      checks.push(check(id, expected, figures[name as keyof typeof figures]));
    }
  }
  return checks;
}
