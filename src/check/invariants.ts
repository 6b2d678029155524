/**
 * The invariants of SPEC §7, as pure functions of a finished run. Each holds for any correct runner under
 * any fault schedule; the scenario's own figures are checked separately (a new fault may change them).
 * Every message says what was expected, what happened, and why that breaks the rule.
 */
import { isTerminal, type RunnerState, type ToolAction } from '../runner/state.js';
import { canonicalJson, sameJson } from '../core/canonical.js';
import type { Run } from '../sim/Run.js';
import type { TraceEventOf } from '../sim/events.js';
import { shortKey } from '../core/key.js';
import type { Check } from './types.js';

export interface InvariantOptions {
  maxSteps: number;
}

export const INVARIANTS = [
  { id: 'inv1_one_effect_per_intent', title: 'at most one effect per intent' },
  { id: 'inv2_call_budget', title: 'calls <= max_calls' },
  { id: 'inv3_same_key_same_args', title: 'every attempt of a pending action used its key and args' },
  { id: 'inv4_log_rebuilds_state', title: 'the event log rebuilds the final state' },
  { id: 'inv5_contract_error_changes_nothing', title: 'a ContractError is final and changes nothing' },
  { id: 'inv6_success_has_receipt', title: 'succeeded means one receipt per reserve, observed' },
  { id: 'inv7_run_terminates', title: 'the run ends within the step bound' },
] as const;

export type InvariantId = (typeof INVARIANTS)[number]['id'];

function verdict(id: InvariantId, problems: string[], expected: unknown, actual: unknown, ok: string): Check {
  const title = INVARIANTS.find((inv) => inv.id === id)!.title;
  return { id, kind: 'invariant', title, passed: problems.length === 0, expected, actual, message: problems[0] ?? ok };
}

const short = shortKey;
const same = sameJson;

/** The attempts recorded in the log, grouped by the decision they belong to. */
function attemptsByDecision(run: Run): Map<number, Array<{ seq: number; state: RunnerState }>> {
  const groups = new Map<number, Array<{ seq: number; state: RunnerState }>>();
  for (const event of run.log) {
    if (event.label !== 'attempt_started' || event.state.pending == null) continue;
    const group = groups.get(event.state.decisions) ?? [];
    group.push(event);
    groups.set(event.state.decisions, group);
  }
  return groups;
}

/**
 * An attempt's call number across the whole scenario, as the wire counts it: a replay of a dead letter starts
 * its own budget at 0, so its calls come after the calls of the deliveries before it.
 */
function globalCall(run: Run): (event: { seq: number; state: RunnerState }) => number {
  const starts = run.log.filter((e) => e.label.startsWith('replay:')).map((e) => e.seq);
  const before = run.replays.map((r) => r.callsBefore);
  return ({ seq, state }) => state.calls + before.slice(0, starts.filter((start) => start <= seq).length).reduce((a, b) => a + b, 0);
}

/** 1. One ledger row per key; stock and version conserved against the ledger; no more receipts than intents. */
export function inv1(run: Run): Check {
  const problems: string[] = [];
  const keys = new Map<string, number>();
  for (const row of run.db.ledger) keys.set(row.key, (keys.get(row.key) ?? 0) + 1);
  for (const [key, rows] of keys) if (rows > 1) problems.push(`key ${short(key)} has ${rows} ledger rows: one key must have one receipt`);
  for (const row of run.db.items) {
    const initial = run.scenario.inventory.items[row.item_id];
    if (initial === undefined) continue;
    const mine = run.db.ledger.filter((l) => l.item_id === row.item_id);
    const reserved = mine.reduce((sum, l) => sum + l.qty, 0);
    const wantAvailable = initial.available - reserved;
    const wantVersion = initial.version + mine.length;
    if (row.available !== wantAvailable || row.version !== wantVersion) {
      const what = row.available < wantAvailable ? 'an effect without a receipt' : 'a receipt without an effect';
      problems.push(
        `${row.item_id} is ${row.available} (v${row.version}) but ${initial.available} (v${initial.version}) minus the ledger's ${reserved} in ${mine.length} row(s) gives ${wantAvailable} (v${wantVersion}): ${what} — the effect and its receipt must commit in one transaction`,
      );
    }
  }
  const intents = run.scenario.script.filter((s) => s.kind === 'tool' && s.name === 'reserve').length;
  const own = run.db.ledger.filter((l) => l.task_id === run.scenario.task.id).length;
  if (own > intents) {
    problems.push(`reserve took effect ${own} times for ${intents} intent(s): ${own} ledger rows for task ${run.scenario.task.id} — did a retry make a new idempotency key?`);
  }
  return verdict('inv1_one_effect_per_intent', problems, `<= ${intents} receipt(s) for the task, stock = initial - ledger`, `${own} receipt(s)`, 'one effect per intent; stock and versions match the ledger');
}

/**
 * Requests the runner put on the wire, per delivery of the task: the run, then each replay of a dead letter
 * (which starts a fresh budget). Read from the trace, the wire's own record, whatever the runner counts.
 */
function wireRequestsPerDelivery(run: Run): number[] {
  const counts = [0];
  for (const event of run.trace) {
    if (event.type === 'replay') counts.push(0);
    else if (event.type === 'request' && event.by === 'runner' && event.delivery === undefined) counts[counts.length - 1]! += 1;
  }
  return counts;
}

/** 2. The budget: neither the runner's own count nor its real requests on the wire exceed max_calls. */
export function inv2(run: Run): Check {
  const max = run.scenario.task.max_calls;
  const logged = Math.max(0, ...run.log.map((e) => e.state.calls), run.state?.calls ?? 0);
  const perDelivery = wireRequestsPerDelivery(run);
  const wire = Math.max(...perDelivery);
  const actual = Math.max(logged, wire);
  const problems: string[] = [];
  if (wire > max) {
    const which = perDelivery.length > 1 ? ` in ${perDelivery.indexOf(wire) === 0 ? 'the run' : `replay ${perDelivery.indexOf(wire)}`}` : '';
    problems.push(`the runner put ${wire} requests on the wire${which} with max_calls ${max}: the budget must be checked before every attempt, retries included`);
  }
  if (logged > max) problems.push(`calls reached ${logged} with max_calls ${max}: the budget must be checked before every attempt`);
  return verdict('inv2_call_budget', problems, `<= ${max}`, actual, `${actual} call(s) within max_calls ${max}`);
}

/** 3. Attempt by attempt: the same pending action (args and key) in the log, and on the wire what was persisted. */
export function inv3(run: Run): Check {
  const problems: string[] = [];
  const call = globalCall(run);
  for (const [decision, attempts] of attemptsByDecision(run)) {
    const first = attempts[0]!;
    for (const attempt of attempts.slice(1)) {
      const pending = attempt.state.pending!;
      if (!same(first.state.pending, pending)) {
        const keyChanged = first.state.pending!.args.key !== pending.args.key;
        const which = `${pending.name} (decision ${decision}) at call ${call(attempt)}`;
        problems.push(
          keyChanged
            ? `${which} used key ${short(pending.args.key)}, but its first attempt (call ${call(first)}) used ${short(first.state.pending!.args.key)}: a retry must reuse the key made when the action was prepared`
            : `${which} changed its args from ${canonicalJson(first.state.pending!.args)} to ${canonicalJson(pending.args)}: a retry must carry the pending action unchanged`,
        );
      }
    }
  }
  let persisted: ToolAction | null = null;
  for (const event of run.trace) {
    if (event.type === 'saved') persisted = event.state.pending;
    else if (event.type === 'recovered') persisted = event.state?.pending ?? null;
    else if (event.type === 'request' && event.by === 'runner' && event.delivery === undefined) {
      if (persisted === null) {
        problems.push(`call ${event.call} sent ${event.action.name} with no pending action saved: persist the pending action (prepared, attempt_started) before the request leaves, or a crash loses it`);
      } else if (!same(persisted, event.action)) {
        problems.push(`call ${event.call} sent ${event.action.name} ${canonicalJson(event.action.args)} but the saved pending action is ${persisted.name} ${canonicalJson(persisted.args)}: send exactly what was persisted`);
      }
    }
  }
  return verdict('inv3_same_key_same_args', problems, 'one key and one set of args per pending action', problems.length === 0 ? 'unchanged' : 'changed', 'every attempt carried its pending action unchanged');
}

/** 4. Rebuilding from the log gives the final state: nothing the runner holds was left unsaved. */
export function inv4(run: Run): Check {
  const rebuilt = run.log.at(-1)?.state ?? null;
  const problems: string[] = [];
  if (run.state === null || rebuilt === null) {
    problems.push('there is no final state to compare with the log');
  } else if (!same(rebuilt, run.state)) {
    const fields = Object.keys({ ...rebuilt, ...run.state }).filter(
      (k) => !same((rebuilt as unknown as Record<string, unknown>)[k], (run.state as unknown as Record<string, unknown>)[k]),
    );
    const f = fields[0]!;
    problems.push(
      `the state rebuilt from the event log differs from the runner's final state in ${fields.join(', ')} (log: ${canonicalJson((rebuilt as unknown as Record<string, unknown>)[f])}, runner: ${canonicalJson((run.state as unknown as Record<string, unknown>)[f])}): save after every change, or a crash loses it`,
    );
  }
  return verdict('inv4_log_rebuilds_state', problems, 'log = final state', problems.length === 0 ? 'equal' : 'different', 'the last logged state is the final state');
}

/** 5. A refusal is definite: it changed no data, it did not refuse an effect already committed, and it was not retried. */
export function inv5(run: Run): Check {
  const problems: string[] = [];
  const requests: Array<TraceEventOf<'request'>> = [];
  let refused: Array<{ action: ToolAction; attempt: number | undefined; code: string | undefined }> = [];
  for (const event of run.trace) {
    if (event.type === 'request' && event.by === 'runner') {
      requests.push(event);
      const retried = refused.find((r) => same(r.action, event.action) && (event.attempt ?? 0) > (r.attempt ?? 0));
      if (retried) {
        problems.push(`the runner tried ${event.action.name} again (attempt ${event.attempt}) after ContractError ${retried.code}: a contract error is never retried — the same request gets the same refusal and only burns the budget`);
        refused = refused.filter((r) => r !== retried);
      }
    }
    if (event.type !== 'reply' || event.outcome.ok || event.outcome.error.class !== 'ContractError') continue;
    const code = event.outcome.error.code;
    if (event.changedData) problems.push(`${event.tool} answered ContractError ${code} but changed the tool's data: a refusal must change nothing (roll the transaction back)`);
    if (event.receiptExisted) {
      problems.push(`${event.tool} answered ContractError ${code} to a request whose effect is already committed under the same key and fingerprint: a faithful retry must get its original receipt — check the ledger before the version`);
    }
    const request = event.by === 'runner' ? requests.at(-1) : undefined;
    if (request && event.delivered) refused.push({ action: request.action, attempt: request.attempt, code });
  }
  return verdict('inv5_contract_error_changes_nothing', problems, 'no change, no retry', problems.length === 0 ? 'held' : 'broken', 'every ContractError left the data as it was and ended the action');
}

/** 6. `succeeded` means each reserve intent has exactly one ledger row, and the runner observed that very receipt. */
export function inv6(run: Run): Check {
  const problems: string[] = [];
  const state = run.state;
  if (state?.status === 'succeeded') {
    let lastReceipt: unknown;
    for (const [decision, attempts] of attemptsByDecision(run)) {
      const pending = attempts[0]!.state.pending!;
      if (pending.name !== 'reserve') continue;
      const keys = new Set(attempts.map((a) => a.state.pending!.args.key));
      const rows = run.db.ledger.filter((row) => keys.has(row.key));
      if (rows.length !== 1) {
        problems.push(`the run succeeded but reserve (decision ${decision}, key ${short(pending.args.key)}) has ${rows.length} ledger rows: each reserve intent needs exactly one receipt`);
      }
      lastReceipt = rows[0]?.result;
    }
    if (lastReceipt !== undefined) {
      const observed = state.observations.reserve;
      if (observed === undefined) problems.push('the run succeeded but the runner has no reserve observation: did it drop the pending action after a failure?');
      else if (!same(observed, lastReceipt)) problems.push(`the reserve observation ${canonicalJson(observed)} is not the stored receipt ${canonicalJson(lastReceipt)}`);
    }
  }
  return verdict(
    'inv6_success_has_receipt',
    problems,
    'one receipt per reserve intent, observed',
    state?.status === 'succeeded' ? (problems.length === 0 ? 'held' : 'broken') : `n/a (${state?.status ?? 'no state'})`,
    state?.status === 'succeeded' ? 'every reserve intent has its one receipt, and the runner saw it' : 'not a success: nothing to check',
  );
}

/** 7. The run reaches a terminal status within the bound. */
export function inv7(run: Run, options: InvariantOptions): Check {
  const status = run.state?.status;
  const problems: string[] = [];
  if (!isTerminal(status)) {
    if (run.runnerError) problems.push(`the run never ended: the runner threw at step ${run.runnerError.step} with status ${status ?? 'none'}`);
    else {
      const stuck = run.state?.pending ? ` with ${run.state.pending.name} still pending after ${run.state.attempts} attempt(s) — the run stopped making progress` : '';
      problems.push(`no terminal status after ${run.steps} steps (bound ${options.maxSteps}): status is still ${status ?? 'none'}${stuck}`);
    }
  }
  return verdict('inv7_run_terminates', problems, `terminal within ${options.maxSteps} steps`, status ?? 'none', `ended ${status} after ${run.steps} steps`);
}

export function checkInvariants(run: Run, options: InvariantOptions): Check[] {
  return [inv1(run), inv2(run), inv3(run), inv4(run), inv5(run), inv6(run), inv7(run, options)];
}
