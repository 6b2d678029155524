/**
 * A scenario's own expected figures (status, calls, ledger rows, stock, pending, observations), checked on
 * top of the invariants. Each failure message says what the figure means, so a learner knows where to look.
 */
import type { Run } from '../sim/Run.js';
import { durabilityFigures, totalCalls } from './durabilityFigures.js';
import { workerFigures } from './workerFigures.js';
import type { Check } from './types.js';
import { purgedReceipts } from './limits.js';
import { message } from '../core/message.js';

/** The figures a scenario may expect; what each means is a message of its own (check.meaning.*). */
const FIGURES = [
  'status',
  'calls',
  'ledger',
  'stock',
  'pending',
  'observations',
  'crashes',
  'durability.backoff_waits',
  'durability.backoff_ms',
  'durability.breaker',
  'durability.refused_by_breaker',
  'durability.dlq',
  'durability.replays',
  'workers.task',
  'workers.grants',
  'workers.stale_refused',
  'charges',
  'purged',
  'unsent',
] as const;

type Figure = (typeof FIGURES)[number];

function check(id: Figure, expected: unknown, actual: unknown, shown: string = id): Check {
  const passed = JSON.stringify(expected) === JSON.stringify(actual);
  const params = { figure: shown, expected: String(JSON.stringify(expected)), actual: String(JSON.stringify(actual)) };
  return {
    id,
    kind: 'expectation',
    title: message('check.figure.title', { figure: shown }),
    passed,
    expected,
    actual,
    message: passed ? message('check.figure.asExpected', params) : message('check.figure.differs', { ...params, meaning: message(`check.meaning.${id}`) }),
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
      const c = check('stock', available, row?.available ?? null, `stock ${item}`);
      checks.push({ ...c, id: `stock.${item}` });
    }
  }
  if (expect.pending !== undefined) checks.push(check('pending', expect.pending, state?.pending?.name ?? null));
  if (expect.observations !== undefined) {
    checks.push(check('observations', [...expect.observations].sort(), Object.keys(state?.observations ?? {}).sort()));
  }
  if (expect.crashes !== undefined) checks.push(check('crashes', expect.crashes, run.crashes));
  // docs/spec.md §13–§14: what the remote service really did, what the purge deleted, what the relay left
  if (expect.charges !== undefined) checks.push(check('charges', expect.charges, run.db.charges?.length ?? 0));
  if (expect.purged !== undefined) checks.push(check('purged', expect.purged, purgedReceipts(run).length));
  if (expect.unsent !== undefined) checks.push(check('unsent', expect.unsent, (run.db.outbox ?? []).filter((row) => row.outcome === null || row.outcome === 'gave_up').length));
  if (expect.durability !== undefined) {
    const figures = durabilityFigures(run);
    for (const [name, expected] of Object.entries(expect.durability)) {
      const id = `durability.${name}` as Figure;
      checks.push(check(id, expected, figures[name as keyof typeof figures]));
    }
  }
  if (expect.workers !== undefined) {
    const figures = workerFigures(run);
    for (const [name, expected] of Object.entries(expect.workers)) checks.push(check(`workers.${name}` as Figure, expected, figures[name as keyof typeof figures]));
  }
  return checks;
}
