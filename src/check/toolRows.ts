/**
 * The tool's committed rows as a trace tells them: the scenario's initial inventory with every committed
 * diff applied in order. The harness reads the database around every delivery, so the diffs are the whole
 * story; a change inside a transaction that a crash rolled back is never applied.
 */
import type { ItemRow, LedgerRow, SnapshotDiff, ToolSnapshot } from '../inventory/snapshot.js';
import type { Scenario } from '../scenario/types.js';

/** The rows before anything ran: items by item_id, no receipt. */
export function initialRows(scenario: Scenario): ToolSnapshot {
  const items: ItemRow[] = Object.entries(scenario.inventory.items)
    .map(([item_id, st]) => ({ item_id, available: st.available, version: st.version }))
    .sort((a, b) => (a.item_id < b.item_id ? -1 : a.item_id > b.item_id ? 1 : 0));
  return { items, ledger: [] };
}

/** The rows after a committed diff (a new value: `before` is kept as it was). */
export function applyDiff(before: ToolSnapshot, diff: SnapshotDiff): ToolSnapshot {
  const { stock, ledgerAdded, ledgerRemoved } = diff;
  const items = before.items.map((row) => {
    const change = stock.find((s) => s.item === row.item_id);
    return change ? { item_id: row.item_id, available: change.available[1], version: change.version[1] } : row;
  });
  for (const s of stock) if (!items.some((row) => row.item_id === s.item)) items.push({ item_id: s.item, available: s.available[1], version: s.version[1] });
  const removed = new Set(ledgerRemoved.map((row) => row.key));
  const ledger: LedgerRow[] = [...before.ledger.filter((row) => !removed.has(row.key)), ...ledgerAdded];
  return { items, ledger };
}
