/**
 * From validated YAML data to a typed Scenario: defaults filled in from src/defaults.ts, the script turned
 * into steps; and the checks a schema cannot express.
 */
import { DEFAULT_DOCS, DEFAULT_MAX_CALLS, DEFAULT_MAX_RETRIES, LEASE_MS, MAX_STEPS, POLL_MS, SWEEP_EVERY_MS } from '../core/defaults.js';
import { message, type Said } from '../core/message.js';
import type { ScenarioCode } from './codes.js';
import { isWorkerFault, type FaultSpec } from '../faults/types.js';
import { usesLimits, type DurabilitySpec, type Expectations, type Inventory, type RemoteSpec, type RetentionSpec, type Scenario, type ScriptStep, type Task, type WorkersSpec } from './types.js';
import type { ScenarioWords } from './words.js';
import type { PathSegment } from './yamlSource.js';

/** The YAML document as the schema admits it. */
export interface ScenarioDocument {
  kind?: 'runner';
  id: string;
  title: string;
  explain: string;
  zh?: ScenarioWords;
  order?: number;
  tags?: string[];
  inventory: { items: Inventory['items']; docs?: Inventory['docs'] };
  task: Omit<Task, 'max_calls' | 'max_retries'> & Partial<Pick<Task, 'max_calls' | 'max_retries'>>;
  policy: { script: Array<Record<string, unknown>> };
  faults?: FaultSpec[];
  durability?: DurabilitySpec;
  workers?: Partial<WorkersSpec> & Pick<WorkersSpec, 'count'>;
  retention?: RetentionSpec;
  remote?: RemoteSpec;
  expect: Expectations;
}

/** A problem found after the schema passed, with the path of the value it is about. */
export interface SemanticIssue {
  path: PathSegment[];
  message: Said;
  /** Point at the map key rather than its value. */
  key?: boolean;
}

/**
 * Events saved only when nothing is pending (docs/spec.md §4): the first state, an observation (pending just cleared),
 * and the statuses a run can only reach from there — a finish, or a policy error while deciding.
 */
const NOTHING_PENDING_AFTER: ReadonlySet<string> = new Set(['started', 'observed', 'succeeded', 'gave_up', 'policy_error']);

/** What a schema cannot express: references to earlier observations, expected stock of a known item, a fault that can never fire. */
export function semanticIssues(doc: ScenarioDocument): SemanticIssue[] {
  const issues: SemanticIssue[] = [];
  const script = scriptOf(doc);
  // A reference must name a tool an earlier step calls, or it can never resolve (a typo, most often).
  // One set grows as the script is read, so the check is linear in the script's length.
  const earlier = new Set<string>();
  script.forEach((step, index) => {
    // docs/spec.md §14.5: a condition reads observations an earlier step made, like an argument's reference.
    for (const ref of Object.keys(step.when ?? {})) {
      const tool = ref.slice(1).split('.')[0]!;
      if (!earlier.has(tool)) {
        issues.push({
          path: ['policy', 'script', index, 'when', ref],
          message: message<ScenarioCode>('scenario.ref.noEarlierStep', { value: ref, tool, earlier: [...earlier].slice(0, 10).join(', ') || message<ScenarioCode>('scenario.ref.none') }),
          key: true,
        });
      }
    }
    if (step.kind !== 'tool') return;
    for (const [arg, value] of Object.entries(step.args)) {
      if (typeof value !== 'string' || !value.startsWith('@')) continue;
      const tool = value.slice(1).split('.')[0]!;
      if (!earlier.has(tool)) {
        issues.push({
          path: ['policy', 'script', index, step.name, arg],
          message: message<ScenarioCode>('scenario.ref.noEarlierStep', { value, tool, earlier: [...earlier].slice(0, 10).join(', ') || message<ScenarioCode>('scenario.ref.none') }),
        });
      }
    }
    earlier.add(step.name);
  });
  const d = doc.durability;
  if (doc.expect.durability !== undefined && d === undefined) {
    issues.push({ path: ['expect', 'durability'], message: message<ScenarioCode>('scenario.durability.figuresWithoutBlock'), key: true });
  }
  if (d?.retry?.max_delay_ms !== undefined && d.retry.initial_delay_ms !== undefined && d.retry.max_delay_ms < d.retry.initial_delay_ms) {
    issues.push({ path: ['durability', 'retry', 'max_delay_ms'], message: message<ScenarioCode>('scenario.durability.capBelowFirst', { initial: d.retry.initial_delay_ms }) });
  }
  if (d?.breaker?.min_request_count !== undefined && d.breaker.window_size !== undefined && d.breaker.min_request_count > d.breaker.window_size) {
    issues.push({
      path: ['durability', 'breaker', 'min_request_count'],
      message: message<ScenarioCode>('scenario.durability.windowTooSmall', { window: d.breaker.window_size, min: d.breaker.min_request_count }),
    });
  }
  // A crash after an event that never has a pending action cannot name that action's tool: it could never fire.
  (doc.faults ?? []).forEach((fault, index) => {
    const label = fault.at.label;
    if (fault.kind !== 'crash_after_event' || fault.at.tool === undefined || label === undefined || !NOTHING_PENDING_AFTER.has(label)) return;
    issues.push({
      path: ['faults', index, 'at', 'tool'],
      message: message<ScenarioCode>('scenario.crashAfterEvent.neverFires', { label, tool: fault.at.tool }),
      key: true,
    });
  });
  const steps = stepsNeeded(doc, script);
  if (steps.most > MAX_STEPS) {
    const given = doc.task?.max_calls !== undefined;
    issues.push({ path: ['task', given ? 'max_calls' : 'max_retries'], message: message<ScenarioCode>('scenario.steps.overBound', { ...steps, bound: MAX_STEPS }) });
  }
  // A condition is read again at every later decision (the policy is stateless): what it reads must not change.
  script.forEach((step, index) => {
    for (const ref of Object.keys(step.when ?? {})) {
      const tool = ref.slice(1).split('.')[0]!;
      const later = script.findIndex((other, j) => j > index && other.kind === 'tool' && other.name === tool);
      if (later !== -1) issues.push({ path: ['policy', 'script', index, 'when', ref], message: message<ScenarioCode>('limits.scenario.conditionChanges', { ref, tool, later: later + 1 }), key: true });
    }
  });
  issues.push(...limitsIssues(doc));
  issues.push(...workerIssues(doc));
  for (const item of Object.keys(doc.expect.stock ?? {})) {
    if (!Object.hasOwn(doc.inventory.items, item)) {
      issues.push({ path: ['expect', 'stock', item], message: message<ScenarioCode>('scenario.stock.unknownItem', { item, items: Object.keys(doc.inventory.items).join(', ') }), key: true });
    }
  }
  return issues;
}

/**
 * The most steps the reference may need, so that every run — with one fault added by the explorer — can end
 * within the bound (invariant 7). Every step but the last makes one call, or recovers from one crash; the
 * calls are at most max_calls, and at most max_retries + 1 per tool step of the script; an operator's replay
 * of a dead letter is a second delivery with its own budget. A scenario past it would fail under the
 * reference itself: it is refused here, not reported as the runner's inv7.
 */
function stepsNeeded(doc: ScenarioDocument, script: ScriptStep[]): { most: number; calls: number; crashes: number; deliveries: number } {
  const maxCalls = doc.task?.max_calls ?? DEFAULT_MAX_CALLS;
  const perTool = (doc.task?.max_retries ?? DEFAULT_MAX_RETRIES) + 1;
  const calls = Math.min(maxCalls, script.filter((step) => step.kind === 'tool').length * perTool);
  const crashes = (doc.faults ?? []).filter((fault) => fault.kind.startsWith('crash_')).length + 1; // one more, added by the explorer
  const deliveries = doc.durability?.dlq?.replay_after_ms !== undefined ? 2 : 1;
  return { most: (calls + crashes + 1) * deliveries, calls, crashes, deliveries };
}

/**
 * What the limits' settings (docs/spec.md §13–§14) need that a schema cannot say: rule 2 keeps receipts as long
 * as a request may arrive, which is bounded only if requests expire (rule 1); both need the validity; a task that
 * calls the keyless service needs one; and none of them runs with many workers yet.
 */
function limitsIssues(doc: ScenarioDocument): SemanticIssue[] {
  const issues: SemanticIssue[] = [];
  const rules = doc.retention?.rules ?? [];
  if (rules.includes('receipts_outlive_requests') && !rules.includes('deadline')) {
    issues.push({ path: ['retention', 'rules'], message: message<ScenarioCode>('limits.scenario.outliveNeedsDeadline') });
  }
  if ((rules.includes('deadline') || rules.includes('receipts_outlive_requests')) && doc.retention?.requests_ms === undefined) {
    issues.push({ path: ['retention'], message: message<ScenarioCode>('limits.scenario.needsValidity'), key: true });
  }
  const remoteTools = (doc.task?.allow ?? []).filter((tool) => tool === 'charge' || tool === 'charge_status');
  if (remoteTools.length > 0 && doc.remote === undefined) {
    issues.push({ path: ['task', 'allow'], message: message<ScenarioCode>('limits.scenario.needsRemote', { tools: remoteTools.join(', ') }) });
  }
  // Many workers run their own harness (src/sim/workers), which has neither the purge nor the relay nor a redelivery.
  if (doc.workers !== undefined && usesLimits({ retention: doc.retention, remote: doc.remote, faults: doc.faults ?? [] })) {
    issues.push({ path: ['workers'], message: message<ScenarioCode>('limits.scenario.withWorkers'), key: true });
  }
  return issues;
}

/** A workers block and what refers to it: worker faults and figures need one, and a worker or a schedule entry must name one of its actors. */
function workerIssues(doc: ScenarioDocument): SemanticIssue[] {
  const issues: SemanticIssue[] = [];
  const spec = doc.workers;
  if (spec === undefined) {
    if (doc.expect.workers !== undefined) issues.push({ path: ['expect', 'workers'], message: message<ScenarioCode>('workers.scenario.figuresWithoutBlock'), key: true });
    (doc.faults ?? []).forEach((fault, index) => {
      if (fault.at.worker !== undefined || isWorkerFault(fault.kind)) issues.push({ path: ['faults', index, 'at', ...(fault.at.worker !== undefined ? ['worker'] : [])], message: message<ScenarioCode>('workers.scenario.faultWithoutBlock', { kind: fault.kind }), key: true });
    });
    return issues;
  }
  if (doc.durability !== undefined) issues.push({ path: ['workers'], message: message<ScenarioCode>('workers.scenario.withDurability'), key: true });
  const names = Array.from({ length: spec.count }, (_, i) => `w${i + 1}`);
  const known = names.join(', ');
  (doc.faults ?? []).forEach((fault, index) => {
    const worker = fault.at.worker;
    if (worker !== undefined && !names.includes(worker)) issues.push({ path: ['faults', index, 'at', 'worker'], message: message<ScenarioCode>('workers.scenario.noSuchWorker', { worker, count: spec.count, known }) });
  });
  (spec.schedule ?? []).forEach((entry, index) => {
    if (entry.run !== 'sweeper' && !names.includes(entry.run)) issues.push({ path: ['workers', 'schedule', index, 'run'], message: message<ScenarioCode>('workers.scenario.noSuchWorker', { worker: entry.run, count: spec.count, known: `${known}, sweeper` }) });
  });
  return issues;
}

function scriptOf(doc: ScenarioDocument): ScriptStep[] {
  return doc.policy.script.map((entry) => {
    const [name, value] = Object.entries(entry).find(([key]) => key !== 'when')!;
    const when = (entry as { when?: Record<string, unknown> }).when;
    const step: ScriptStep = name === 'finish' ? { kind: 'finish', status: value as string } : { kind: 'tool', name, args: (value ?? {}) as Record<string, unknown> };
    return when === undefined ? step : { ...step, when };
  });
}

/** A valid document (schema and semantics) as a typed Scenario, defaults filled in. */
export function toScenario(doc: ScenarioDocument, file: string): Scenario {
  return {
    id: doc.id,
    title: doc.title,
    explain: doc.explain.trim(),
    ...(doc.zh !== undefined ? { zh: { title: doc.zh.title, explain: doc.zh.explain.trim() } } : {}),
    file,
    ...(doc.order !== undefined ? { order: doc.order } : {}),
    tags: doc.tags ?? [],
    inventory: { items: doc.inventory.items, docs: doc.inventory.docs ?? DEFAULT_DOCS.map((d) => ({ ...d })) },
    task: {
      id: doc.task.id,
      items: doc.task.items,
      allow: doc.task.allow,
      max_calls: doc.task.max_calls ?? DEFAULT_MAX_CALLS,
      max_retries: doc.task.max_retries ?? DEFAULT_MAX_RETRIES,
    },
    script: scriptOf(doc),
    faults: doc.faults ?? [],
    ...(doc.durability !== undefined ? { durability: doc.durability } : {}),
    ...(doc.workers !== undefined ? { workers: workersOf(doc.workers) } : {}),
    ...(doc.retention !== undefined ? { retention: doc.retention } : {}),
    ...(doc.remote !== undefined ? { remote: doc.remote } : {}),
    expect: doc.expect,
  };
}

function workersOf(given: NonNullable<ScenarioDocument['workers']>): WorkersSpec {
  return {
    count: given.count,
    lease_ms: given.lease_ms ?? LEASE_MS,
    sweep_every_ms: given.sweep_every_ms ?? SWEEP_EVERY_MS,
    poll_ms: given.poll_ms ?? POLL_MS,
    schedule: given.schedule ?? [],
  };
}
