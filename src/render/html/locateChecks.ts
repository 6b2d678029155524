/**
 * Where a failed check shows on the timeline: the moment a failing invariant first became true of the run,
 * so the page can mark it at that step. The checks themselves (src/check) judge the finished run; this only
 * points at the moment, reading the same analysis (src/check/analysis.ts) — the database rows as they were
 * then, the saved states, the attempts and what they were told. A check with no better place (a figure, the end state) points at the end.
 */
import type { RunResult } from '../../check/RunResult.js';
import type { Check } from '../../check/types.js';
import { canonicalJson } from '../../core/canonical.js';
import type { ToolSnapshot } from '../../inventory/snapshot.js';
import type { ToolAction } from '../../runner/state.js';
import type { Timeline } from './moments.js';

type Locator = (run: RunResult, timeline: Timeline) => number | null;

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** Invariant 1 on the rows as they stood: one row per key, stock and versions conserved, receipts ≤ intents. */
function conserved(run: RunResult, db: ToolSnapshot): boolean {
  const keys = new Set<string>();
  for (const row of db.ledger) {
    if (keys.has(row.key)) return false;
    keys.add(row.key);
  }
  for (const row of db.items) {
    const initial = run.scenario.inventory.items[row.item_id];
    if (initial === undefined) continue;
    const mine = db.ledger.filter((l) => l.item_id === row.item_id);
    if (row.available !== initial.available - mine.reduce((sum, l) => sum + l.qty, 0) || row.version !== initial.version + mine.length) return false;
  }
  const intents = run.scenario.script.filter((s) => s.kind === 'tool' && s.name === 'reserve').length;
  return db.ledger.filter((l) => l.task_id === run.scenario.task.id).length <= intents;
}

const LOCATORS: Record<string, Locator> = {
  inv1_one_effect_per_intent: (run, timeline) => timeline.moments.find((m) => m.dbChanged && !conserved(run, timeline.dbStates[m.db]!))?.index ?? null,
  inv2_call_budget: (run) => {
    const max = run.scenario.task.max_calls;
    const i = run.trace.findIndex(
      (e) => (e.type === 'request' && e.by === 'runner' && (e.call ?? 0) > max) || (e.type === 'saved' && e.state.calls > max),
    );
    return i === -1 ? null : i;
  },
  inv3_same_key_same_args: (_run, { analysis }) => {
    const first = new Map<number, ToolAction>();
    for (const { index, event, saved, attempt } of analysis.events) {
      if (event.type === 'saved') {
        if (saved!.parsed.kind === 'attempt_started' && event.state.pending) {
          const was = first.get(event.state.decisions);
          if (was === undefined) first.set(event.state.decisions, event.state.pending);
          else if (!same(was, event.state.pending)) return index;
        }
      } else if (attempt?.at === index && (attempt.pending === null || !same(attempt.pending, attempt.action))) return index;
    }
    return null;
  },
  inv4_log_rebuilds_state: (run) => lastIndex(run, (e) => e.type === 'saved'),
  inv5_contract_error_changes_nothing: (_run, { analysis }) => {
    let refused: Array<{ action: ToolAction; attempt: number }> = [];
    for (const { index, event, attempt } of analysis.events) {
      if (event.type === 'request' && event.by === 'runner' && refused.some((r) => same(r.action, event.action) && (event.attempt ?? 0) > r.attempt)) return index;
      if (event.type === 'reply' && !event.outcome.ok && event.outcome.error.class === 'ContractError') {
        if (event.changedData || event.receiptExisted) return index;
        // The refusal answers the attempt's last request: for a duplicate delivery, the second (it has no attempt number).
        if (event.by === 'runner' && event.delivered && attempt !== null) refused = [...refused, { action: attempt.action, attempt: (attempt.secondAt === undefined ? attempt.attempt : undefined) ?? 0 }];
      }
    }
    return null;
  },
  inv7_run_terminates: (run) => {
    const i = run.trace.findIndex((e) => e.type === 'runner_error');
    return i === -1 ? null : i;
  },
  runner_error: (run) => {
    const i = run.trace.findIndex((e) => e.type === 'runner_error');
    return i === -1 ? null : i;
  },
};

function lastIndex(run: RunResult, test: (e: RunResult['trace'][number]) => boolean): number | null {
  for (let i = run.trace.length - 1; i >= 0; i--) if (test(run.trace[i]!)) return i;
  return null;
}

/** For every failed check, the trace index where the page marks it (the last event when no better place). */
export function locateChecks(run: RunResult, timeline: Timeline): Map<Check, number> {
  const end = Math.max(0, run.trace.length - 1);
  const at = new Map<Check, number>();
  for (const check of run.checks) {
    if (check.passed) continue;
    at.set(check, LOCATORS[check.id]?.(run, timeline) ?? end);
  }
  return at;
}


