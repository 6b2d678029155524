/**
 * The invariants of docs/spec.md §7, as pure functions of a finished run. Each holds for any correct runner under
 * any fault schedule; the scenario's own figures are checked separately (a new fault may change them).
 * Every message says what was expected, what happened, and why that breaks the rule.
 */
import type { RunnerState } from '../runner/state.js';
import { isTerminal, type ToolAction } from '../runner/state.js';
import { canonicalJson, sameJson } from '../core/canonical.js';
import type { Run } from '../sim/Run.js';
import { analyze, type Analysis } from './analysis.js';
import { purgedReceipts } from './limits.js';
import { checkQueueInvariants } from './queueInvariants.js';
import { shortKey } from '../core/key.js';
import type { Check } from './types.js';
import { listed, message, type Message, type Param } from '../core/message.js';
import type { CheckCode } from './codes.js';

export interface InvariantOptions {
  maxSteps: number;
}

/** The seven, in order, each with its title (a message: the renderers word it). */
export const INVARIANTS = [
  { id: 'inv1_one_effect_per_intent', title: message('check.inv1.title') },
  { id: 'inv2_call_budget', title: message('check.inv2.title') },
  { id: 'inv3_same_key_same_args', title: message('check.inv3.title') },
  { id: 'inv4_log_rebuilds_state', title: message('check.inv4.title') },
  { id: 'inv5_contract_error_changes_nothing', title: message('check.inv5.title') },
  { id: 'inv6_success_has_receipt', title: message('check.inv6.title') },
  { id: 'inv7_run_terminates', title: message('check.inv7.title') },
] as const;

export type InvariantId = (typeof INVARIANTS)[number]['id'];

function verdict(id: InvariantId, problems: Problems, expected: unknown, actual: unknown, ok: Message<CheckCode>): Check {
  const title = INVARIANTS.find((inv) => inv.id === id)!.title;
  return { id, kind: 'invariant', title, passed: problems.length === 0, expected, actual, message: problems[0] ?? ok };
}

type Problems = Array<Message<CheckCode>>;

const short = shortKey;
const same = sameJson;

/** 1. One ledger row per key; stock and version conserved against the ledger; no more receipts than intents. */
export function inv1(run: Run): Check {
  const problems: Problems = [];
  const keys = new Map<string, number>();
  for (const row of run.db.ledger) keys.set(row.key, (keys.get(row.key) ?? 0) + 1);
  for (const [key, rows] of keys) if (rows > 1) problems.push(message('check.inv1.keyRows', { key: short(key), rows }));
  // A receipt the tool's purge deleted (docs/spec.md §13) was a receipt all the same: its effect stays.
  const receipts = [...run.db.ledger, ...purgedReceipts(run)];
  for (const row of run.db.items) {
    const initial = run.scenario.inventory.items[row.item_id];
    if (initial === undefined) continue;
    const mine = receipts.filter((l) => l.item_id === row.item_id);
    const reserved = mine.reduce((sum, l) => sum + l.qty, 0);
    const wantAvailable = initial.available - reserved;
    const wantVersion = initial.version + mine.length;
    if (row.available !== wantAvailable || row.version !== wantVersion) {
      // The version counts every change of stock, a compensation's too (docs/spec.md §14.5): one above the rows is a change with no receipt.
      const what = row.available < wantAvailable || row.version > wantVersion ? message('check.inv1.effectWithoutReceipt') : message('check.inv1.receiptWithoutEffect');
      problems.push(
        message('check.inv1.notConserved', {
          item: row.item_id,
          available: row.available,
          version: row.version,
          initial: initial.available,
          initialVersion: initial.version,
          reserved,
          rows: mine.length,
          want: wantAvailable,
          wantVersion,
          what,
        }),
      );
    }
  }
  const intents = run.scenario.script.filter((s) => s.kind === 'tool' && s.name === 'reserve').length;
  // A compensation's receipt (a release, −qty: docs/spec.md §14.5) is not a reservation.
  const own = run.db.ledger.filter((l) => l.task_id === run.scenario.task.id && l.qty > 0).length;
  if (own > intents) {
    problems.push(message('check.inv1.tooManyEffects', { own, intents, task: run.scenario.task.id }));
  }
  return verdict('inv1_one_effect_per_intent', problems, `<= ${intents} receipt(s) for the task, stock = initial - ledger`, `${own} receipt(s)`, message('check.inv1.ok'));
}

/** 2. The budget: neither the runner's own count nor its real requests on the wire exceed max_calls. */
export function inv2(run: Run, analysis: Analysis = analyze(run)): Check {
  const max = run.scenario.task.max_calls;
  const logged = Math.max(0, ...run.log.map((e) => e.state.calls), run.state?.calls ?? 0);
  // Per delivery of the task (the run, then each replay of a dead letter, which starts a fresh budget), as the wire counted them.
  const perDelivery = analysis.requestsPerDelivery;
  const wire = Math.max(...perDelivery);
  const actual = Math.max(logged, wire);
  const problems: Problems = [];
  if (wire > max) {
    const at = perDelivery.indexOf(wire);
    const params = { wire, max };
    if (perDelivery.length <= 1) problems.push(message('check.inv2.wire', params));
    else problems.push(at === 0 ? message('check.inv2.wireInRun', params) : message('check.inv2.wireInReplay', { ...params, replay: at }));
  }
  if (logged > max) problems.push(message('check.inv2.logged', { logged, max }));
  if (run.workers === undefined) problems.push(...attemptBounds(run, analysis));
  return verdict('inv2_call_budget', problems, `<= ${max}`, actual, message('check.inv2.ok', { actual, max }));
}

const actionOf = (state: RunnerState): string | null => (state.pending == null ? null : `${state.decisions}:${state.pending.name}`);

/**
 * 2, after every step: the attempts of each pending action, as its requests leave. An attempt number is the
 * count of the action's own tries since it was prepared — never more than the tries really made (each request,
 * each attempt the breaker refused, and one for each crash since, whose attempt may never have left) — and no
 * try follows the (max_retries + 1)-th TransientError of one action. The first step that breaks either is told.
 */
function attemptBounds(run: Run, analysis: Analysis): Problems {
  const found = attemptsOutOfBounds(run, analysis);
  if (found === null) return [];
  const { step, name } = found;
  return found.kind === 'pastLimit'
    ? [message('check.inv2.retriedPastLimit', { step, name, failures: found.failures, max: run.scenario.task.max_retries })]
    : [message('check.inv2.attemptsOvercounted', { step, name, attempt: found.attempt, made: found.made })];
}

/** The first request whose attempt is out of its bounds (invariant 2, after every step): where, and how. */
export type AttemptsOutOfBounds = { step: number; name: string; at: number; prepared: RunnerState | null } & (
  | { kind: 'pastLimit'; failures: number }
  | { kind: 'overcounted'; attempt: number; made: number }
);

export function attemptsOutOfBounds(run: Run, analysis: Analysis = analyze(run)): AttemptsOutOfBounds | null {
  const maxRetries = run.scenario.task.max_retries;
  /** The first saved state that held the action: what its attempts were when it was prepared. */
  let prepared: RunnerState | null = null;
  // One action from its prepare on, whatever a retry did to its args or key (invariant 3's business): its decision and tool.
  let pending: string | null = null;
  let made = 0;
  let failures = 0;
  for (const { event, attempt, index } of analysis.events) {
    switch (event.type) {
      case 'saved':
      case 'recovered':
        if (event.state === null) break;
        if (actionOf(event.state) !== pending) {
          pending = actionOf(event.state);
          prepared = event.state;
          made = 0;
          failures = 0;
        }
        break;
      case 'replay':
      case 'redelivery':
        pending = null;
        made = 0;
        failures = 0;
        break;
      case 'crash':
        made += 1;
        break;
      case 'pillar':
        if (event.event.type === 'breaker.rejected') made += 1;
        break;
      case 'request': {
        if (event.by !== 'runner' || event.delivery !== undefined || event.check || attempt === null || attempt.at !== index) break;
        made += 1;
        const name = event.action.name;
        if (failures > maxRetries) return { kind: 'pastLimit', step: event.step, name, at: index, prepared, failures };
        if (event.attempt !== undefined && event.attempt > made) return { kind: 'overcounted', step: event.step, name, at: index, prepared, attempt: event.attempt, made };
        break;
      }
      case 'reply':
        if (event.by === 'runner' && event.delivered && !event.outcome.ok && event.outcome.error.class === 'TransientError' && attempt?.check !== true) failures += 1;
        break;
    }
  }
  return null;
}

/** 3. Attempt by attempt: the same pending action (args and key) in the log, and on the wire what was persisted. */
export function inv3(run: Run, analysis: Analysis = analyze(run)): Check {
  const problems: Problems = [];
  for (const attempts of analysis.attemptsByDecision.values()) {
    const first = attempts[0]!;
    const decision = first.state.decisions;
    for (const attempt of attempts.slice(1)) {
      const pending = attempt.state.pending!;
      if (!same(first.state.pending, pending)) {
        const keyChanged = first.state.pending!.args.key !== pending.args.key;
        const which = { name: pending.name, decision, call: attempt.call };
        problems.push(
          keyChanged
            ? message('check.inv3.keyChanged', { ...which, key: short(pending.args.key), firstCall: first.call, firstKey: short(first.state.pending!.args.key) })
            : message('check.inv3.argsChanged', { ...which, from: canonicalJson(first.state.pending!.args), to: canonicalJson(pending.args) }),
        );
      }
    }
  }
  for (const sent of analysis.attempts) {
    if (sent.check) continue; // a client's status query (docs/spec.md §14): it asks about the pending action, it does not carry it
    const persisted = sent.pending;
    if (persisted === null) {
      problems.push(message('check.inv3.notPersisted', { call: String(sent.call), name: sent.action.name }));
    } else if (!same(persisted, sent.action)) {
      problems.push(
        message('check.inv3.sentOther', { call: String(sent.call), name: sent.action.name, args: canonicalJson(sent.action.args), saved: persisted.name, savedArgs: canonicalJson(persisted.args) }),
      );
    }
  }
  if (run.workers === undefined) problems.push(...keptUntilObserved(analysis));
  return verdict('inv3_same_key_same_args', problems, 'one key and one set of args per pending action', problems.length === 0 ? 'unchanged' : 'changed', message('check.inv3.ok'));
}

/**
 * 3, after every step: a pending action stays pending until the tool's answer to it is recorded — not dropped
 * before (the effect may have happened), not kept after (a crash then sends it again). Read save by save: a save
 * that no longer holds the action must hold its answer (the one the tool gave, or at least a new observation of
 * that tool); the first save after the tool answered it must no longer hold it. The first save that breaks one is told.
 */
function keptUntilObserved(analysis: Analysis): Problems {
  let held: RunnerState | null = null;
  const answers = new Map<string, unknown>();
  for (const { event, toldBefore } of analysis.events) {
    if (event.type === 'replay' || event.type === 'redelivery') {
      held = null;
      answers.clear();
    } else if (event.type === 'recovered') {
      held = event.state;
    } else if (event.type === 'saved') {
      const state = event.state;
      for (const told of toldBefore ?? []) {
        if (told.check || told.told === null || !told.told.outcome.ok) continue;
        answers.set(canonicalJson(told.action), told.told.outcome.value);
        if (told.pending !== null && same(told.pending, told.action) && actionOf(state) === `${told.decision}:${told.action.name}`) {
          return [message('check.inv3.stillPendingAfterAnswer', { step: event.step, seq: event.seq, label: event.label, action: formatPending(told.action) })];
        }
      }
      const before = held?.pending ?? null;
      if (before != null && actionOf(state) !== actionOf(held!)) {
        const name = before.name;
        const key = canonicalJson(before);
        const observed = (answers.has(key) && same(state.observations?.[name], answers.get(key))) || !same(state.observations?.[name], held!.observations?.[name]);
        if (!observed) return [message('check.inv3.droppedUnobserved', { step: event.step, seq: event.seq, label: event.label, action: formatPending(before) })];
      }
      held = state;
    }
  }
  return [];
}

/** A pending action in a message: its name and args, the key shortened. */
function formatPending(action: ToolAction): string {
  const args = Object.entries(action.args).map(([k, v]) => `${k}=${k === 'key' ? short(v) : typeof v === 'string' ? v : canonicalJson(v)}`);
  return `${action.name}(${args.join(' ')})`;
}

/** Where two states differ: the fields, and the first one's values. */
function stateDiff(logged: RunnerState, held: RunnerState): { fields: Param; log: string; runner: string } {
  const fields = Object.keys({ ...logged, ...held }).filter((k) => !same((logged as unknown as Record<string, unknown>)[k], (held as unknown as Record<string, unknown>)[k]));
  const f = fields[0]!;
  return {
    fields: listed(fields),
    log: String(canonicalJson((logged as unknown as Record<string, unknown>)[f])),
    runner: String(canonicalJson((held as unknown as Record<string, unknown>)[f])),
  };
}

/**
 * 4. The log rebuilds the runner's state at every moment: after every step, what the step left is what a crash
 * then would rebuild (its last committed event) — and so at the end. Nothing the runner holds was left unsaved.
 */
export function inv4(run: Run): Check {
  const rebuilt = run.log.at(-1)?.state ?? null;
  const problems: Problems = [];
  for (const { step, seq, logged, returned } of run.unsaved ?? []) {
    if (logged === null) problems.push(message('check.inv4.nothingSaved', { step }));
    else problems.push(message('check.inv4.unsavedStep', { step, seq: seq ?? 0, ...stateDiff(logged, returned) }));
  }
  if (run.state === null || rebuilt === null) {
    problems.push(message('check.inv4.noState'));
  } else if (run.runnerError === null && !same(rebuilt, run.state)) {
    // A step that threw returned no state: what it held is unknown, and the state before it is no final state to
    // compare (the throw is told as itself, and invariant 7 fails: the run never ended).
    problems.push(message('check.inv4.differs', stateDiff(rebuilt, run.state)));
  }
  return verdict('inv4_log_rebuilds_state', problems, 'log = state after every step', problems.length === 0 ? 'equal' : 'different', message('check.inv4.ok'));
}

/** The refusals that do not deny an earlier effect: the receipt is gone, the task is done, the request came too late. */
const SAYS_IT_TOOK_EFFECT: ReadonlySet<string> = new Set(['RECEIPT_PURGED', 'TASK_FINISHED', 'EXPIRED']);

const NONE_REFUSED: never[] = [];

/** 5. A refusal is definite: it changed no data, it did not refuse an effect already committed, and it was not retried. */
export function inv5(run: Run, analysis: Analysis = analyze(run)): Check {
  const problems: Problems = [];
  type Refusal = { action: ToolAction; attempt: number | undefined; code: string | undefined };
  // Per worker, and from its latest grant on (many workers): another worker's attempt, or this one's under a new
  // grant, is not a retry of a refusal it was told. One runner: one list.
  const refusedBy = new Map<string, Refusal[]>();
  const lanes = run.workers !== undefined;
  for (const { event, attempt: sent } of analysis.events) {
    const lane = lanes ? (event.worker ?? '') : '';
    if (lanes && event.type === 'claim' && event.granted !== null) refusedBy.delete(lane);
    const refused = refusedBy.get(lane) ?? NONE_REFUSED;
    if (event.type === 'request' && event.by === 'runner') {
      const retried = refused.find((r) => same(r.action, event.action) && (event.attempt ?? 0) > (r.attempt ?? 0));
      if (retried) {
        problems.push(message('check.inv5.retried', { name: event.action.name, attempt: String(event.attempt), code: String(retried.code) }));
        refusedBy.set(lane, refused.filter((r) => r !== retried));
      }
    }
    if (event.type !== 'reply' || event.outcome.ok || event.outcome.error.class !== 'ContractError') continue;
    const code = event.outcome.error.code;
    if (event.changedData) problems.push(message('check.inv5.changedData', { tool: event.tool, code: String(code) }));
    if (event.receiptExisted) {
      // A stale holder's refusal is about its grant, not the intent: another holder may well have carried the intent.
      if (code !== 'STALE_FENCE') problems.push(message('check.inv5.refusedCommitted', { tool: event.tool, code: String(code) }));
    } else if (event.effectExisted && !SAYS_IT_TOOK_EFFECT.has(String(code))) {
      // docs/spec.md §13 rule 3: once its receipt is purged, a request that took effect is told so — or it is told a lie.
      problems.push(message('limits.check.inv5.refusedPurged', { tool: event.tool, code: String(code) }));
    }
    // The refusal answers the attempt's last request on the wire: for a duplicate delivery, the second (it has no attempt number).
    if (event.by === 'runner' && sent !== null && event.delivered) refusedBy.set(lane, [...(refusedBy.get(lane) ?? []), { action: sent.action, attempt: sent.secondAt === undefined ? sent.attempt : undefined, code }]);
  }
  return verdict('inv5_contract_error_changes_nothing', problems, 'no change, no retry', problems.length === 0 ? 'held' : 'broken', message('check.inv5.ok'));
}

/** 6. `succeeded` means each reserve intent has exactly one ledger row, and the runner observed that very receipt. */
export function inv6(run: Run, analysis: Analysis = analyze(run)): Check {
  const problems: Problems = [];
  const state = run.state;
  if (state?.status === 'succeeded') {
    let lastReceipt: unknown;
    for (const attempts of analysis.attemptsByDecision.values()) {
      const decision = attempts[0]!.state.decisions;
      const pending = attempts[0]!.state.pending!;
      if (pending.name !== 'reserve') continue;
      const keys = new Set(attempts.map((a) => a.state.pending!.args.key));
      const kept = run.db.ledger.filter((row) => keys.has(row.key));
      // A receipt the purge deleted since (docs/spec.md §13) was the intent's row: it counts, if none is kept.
      const rows = kept.length > 0 ? kept : purgedReceipts(run).filter((row) => keys.has(row.key)).slice(0, 1);
      if (rows.length !== 1) {
        problems.push(message('check.inv6.rows', { decision, key: short(pending.args.key), rows: rows.length }));
      }
      lastReceipt = rows[0]?.result;
    }
    if (lastReceipt !== undefined) {
      const observed = state.observations.reserve;
      if (observed === undefined) problems.push(message('check.inv6.notObserved'));
      else if (!same(observed, lastReceipt)) problems.push(message('check.inv6.otherReceipt', { observed: String(canonicalJson(observed)), stored: String(canonicalJson(lastReceipt)) }));
    }
  }
  return verdict(
    'inv6_success_has_receipt',
    problems,
    'one receipt per reserve intent, observed',
    state?.status === 'succeeded' ? (problems.length === 0 ? 'held' : 'broken') : `n/a (${state?.status ?? 'no state'})`,
    state?.status === 'succeeded' ? message('check.inv6.ok') : message('check.inv6.notSuccess'),
  );
}

/** 7. The run reaches a terminal status within the bound. */
export function inv7(run: Run, options: InvariantOptions): Check {
  const status = run.state?.status;
  const problems: Problems = [];
  if (!isTerminal(status)) {
    if (run.runnerError) problems.push(message('check.inv7.threw', { step: run.runnerError.step, status: status ?? 'none' }));
    else {
      const params = { steps: run.steps, bound: options.maxSteps, status: status ?? 'none' };
      const pending = run.state?.pending;
      problems.push(pending ? message('check.inv7.stuck', { ...params, name: pending.name, attempts: run.state!.attempts }) : message('check.inv7.noEnd', params));
    }
  }
  return verdict('inv7_run_terminates', problems, `terminal within ${options.maxSteps} steps`, status ?? 'none', message('check.inv7.ok', { status: String(status), steps: run.steps }));
}

export function checkInvariants(run: Run, options: InvariantOptions): Check[] {
  const analysis = analyze(run);
  const seven = [inv1(run), inv2(run, analysis), inv3(run, analysis), inv4(run), inv5(run, analysis), inv6(run, analysis), inv7(run, options)];
  // Many workers: the queue's six beside the seven (docs/spec.md §12). One runner: the seven, exactly.
  return run.workers === undefined ? seven : [...seven, ...checkQueueInvariants(run, analysis)];
}
