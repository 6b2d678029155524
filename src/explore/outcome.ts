/**
 * A run's final outcome in one line — status, calls, ledger rows, and the stock of every item that moved —
 * so that the explorer can count how many different endings a scenario has under all its schedules.
 */
import type { RunResult } from '../check/RunResult.js';

export function outcomeOf(run: RunResult): string {
  const calls = run.state?.calls ?? 0;
  const rows = run.db.ledger.length;
  const moved = run.db.items
    .filter((row) => {
      const initial = run.scenario.inventory.items[row.item_id];
      return initial === undefined || initial.available !== row.available;
    })
    .map((row) => `${row.item_id} ${row.available}`);
  return [
    run.state?.status ?? 'no state',
    `${calls} call${calls === 1 ? '' : 's'}`,
    `${rows} ledger row${rows === 1 ? '' : 's'}`,
    moved.length === 0 ? 'stock unchanged' : moved.join(', '),
  ].join(' · ');
}
