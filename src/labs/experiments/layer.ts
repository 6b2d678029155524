import { DurabilityLayer, type CallContext, type DurableOperation, type LayerOutcome } from '../../durability/DurabilityLayer.js';
import type { DlqRecord } from '../../durability/dlq/DeadLetterQueue.js';
import { isDurabilityError } from '../../durability/errors.js';
import { fail, succeed, type AttemptResult } from '../../durability/retry/RetryEngine.js';
import { openDatabase } from '../../core/storage.js';
import type { LabContext } from '../LabContext.js';
import { ScenarioInputError } from '../ScenarioInputError.js';
import type { PathSegment } from '../../scenario/yamlSource.js';
import { requireKnownErrorCode } from './errorCodes.js';
import { isTimeStep, onlyKey, runTimeStep, type Experiment, type TimeStep } from './types.js';

/**
 * Named operations sent through the DurabilityLayer against simulated dependencies. Each operation
 * scripts what its dependency answers, call by call (`ok`, `lost_reply` — applied, but the reply is
 * lost — or an error code, which applied nothing); after the script, `ok`. A dependency that honours
 * the idempotency key keeps a ledger: a key it has applied is answered from the ledger, not applied again.
 */

interface OperationSpec {
  agent_id: string;
  operation_type: string;
  dependency: string;
  content: unknown;
  checkpoint?: { task_id: string; phase: string };
  responses?: string[];
}

type Step = TimeStep | { submit: { operation: string; label: string } } | { replay: { of: string; label: string } };

interface Setup {
  operations: Record<string, OperationSpec>;
  dependencies?: Record<string, { honours_idempotency_key?: boolean }>;
  steps: Step[];
}

export const layerExperiment: Experiment = {
  meanings: {
    outcomes: 'how each step ended: succeeded, duplicate, circuit_open, dead_lettered, non_retryable, or refused',
    attempts: 'attempts each step made, the first included',
    delays_ms: 'the backoff waits of each step, in virtual ms',
    results: 'the result each step got back (a duplicate gets the original’s)',
    refusals: 'the error code of a refused step',
    after: 'the state of the world right after each step',
    effects: 'effects the dependencies applied in total (the number that must not double)',
    effects_by_operation: 'effects applied per operation',
    calls_reaching_dependency: 'calls that reached a dependency',
    dlq: 'the DLQ records at the end',
    transitions: 'breaker state changes, in order',
    checkpoints: 'checkpoints saved by successful operations',
  },

  run(ctx: LabContext): Record<string, unknown> {
    const setup = ctx.scenario as unknown as Setup;
    for (const [name, spec] of Object.entries(setup.operations)) {
      spec.responses?.forEach((response, k) => {
        if (response !== 'ok' && response !== 'lost_reply') requireKnownErrorCode(ctx.config, response, ['operations', name, 'responses', k]);
      });
    }
    const db = openDatabase();
    const layer = new DurabilityLayer({ db, clock: ctx.clock, rng: ctx.rng.fork('retry'), config: ctx.config, events: ctx.sink });
    const transitions: string[] = [];
    layer.breakers.onTransition((t) => transitions.push(`${t.dependency}: ${t.from}→${t.to}`));

    const ledgers = new Map<string, Map<string, string>>();
    const responded = new Map<string, number>();
    const effectsBy: Record<string, number> = Object.fromEntries(Object.keys(setup.operations).map((name) => [name, 0]));
    let effects = 0;
    let reached = 0;

    const dependencyFor = (name: string) => (context: CallContext): AttemptResult<string> => {
      const spec = setup.operations[name] as OperationSpec;
      const n = responded.get(name) ?? 0;
      responded.set(name, n + 1);
      reached += 1;
      const response = spec.responses?.[n] ?? 'ok';
      const honours = setup.dependencies?.[spec.dependency]?.honours_idempotency_key ?? true;
      const ledger = ledgers.get(spec.dependency) ?? new Map<string, string>();
      ledgers.set(spec.dependency, ledger);
      let applied = false;
      let receipt: string | undefined;
      if (response === 'ok' || response === 'lost_reply') {
        receipt = honours ? ledger.get(context.key) : undefined;
        if (receipt === undefined) {
          effects += 1;
          effectsBy[name] = (effectsBy[name] ?? 0) + 1;
          receipt = `r-${effects}`;
          applied = true;
          if (honours) ledger.set(context.key, receipt);
        }
      }
      ctx.emit({
        type: 'dependency.call',
        dependency: spec.dependency,
        operation: name,
        attempt: context.attempt,
        response,
        effectApplied: applied,
        definite: response !== 'lost_reply',
      });
      if (response === 'ok') return succeed(receipt as string);
      if (response === 'lost_reply') return fail('NETWORK_TIMEOUT', `${spec.dependency} applied it, but the reply was lost`, false);
      return fail(response, `${spec.dependency} answered ${response}`, true);
    };

    const operationOf = (name: string, path: readonly PathSegment[] = []): DurableOperation => {
      const spec = setup.operations[name];
      if (!spec) throw new ScenarioInputError(`no operation "${name}" (operations: ${Object.keys(setup.operations).join(', ')})`, path);
      return {
        agentId: spec.agent_id,
        operationType: spec.operation_type,
        dependency: spec.dependency,
        content: spec.content,
        ...(spec.checkpoint ? { checkpoint: { taskId: spec.checkpoint.task_id, phase: spec.checkpoint.phase } } : {}),
      };
    };

    const outcomes: Record<string, string> = {};
    const attempts: Record<string, number> = {};
    const delays: Record<string, number[]> = {};
    const results: Record<string, unknown> = {};
    const refusals: Record<string, string> = {};
    const after: Record<string, unknown> = {};
    const dlqOf = new Map<string, { dlqId: string; operation: string }>();

    const record = (label: string, name: string, outcome: LayerOutcome<string>): void => {
      outcomes[label] = outcome.kind;
      if ('attempts' in outcome) attempts[label] = outcome.attempts;
      if ('delaysMs' in outcome) delays[label] = outcome.delaysMs;
      if (outcome.kind === 'succeeded') results[label] = outcome.result;
      if (outcome.kind === 'duplicate') results[label] = outcome.originalResult;
      if (outcome.kind === 'dead_lettered' && outcome.dlqRecord) dlqOf.set(label, { dlqId: outcome.dlqRecord.dlqId, operation: name });
      ctx.emit({ type: 'layer.outcome', label, kind: outcome.kind, detail: describe(outcome) });
    };

    try {
      setup.steps.forEach((step, index) => {
        onlyKey(step, index);
        if (isTimeStep(step)) return runTimeStep(ctx, step, index);
        let label: string;
        let name: string;
        if ('submit' in step) {
          ({ label, operation: name } = step.submit);
          ctx.step(`submit ${name} [${label}]`);
          record(label, name, layer.execute(operationOf(name, ['steps', index, 'submit', 'operation']), dependencyFor(name)));
        } else {
          label = step.replay.label;
          const source = dlqOf.get(step.replay.of);
          if (!source) throw new ScenarioInputError(`step "${step.replay.of}" made no DLQ record to replay`, ['steps', index, 'replay', 'of']);
          name = source.operation;
          ctx.step(`replay ${source.dlqId} (${name}, from step ${step.replay.of}) [${label}]`);
          try {
            record(label, name, layer.replay(source.dlqId, dependencyFor(name)).outcome);
          } catch (error) {
            if (!isDurabilityError(error)) throw error;
            outcomes[label] = 'refused';
            refusals[label] = error.code;
            ctx.emit({ type: 'layer.outcome', label, kind: 'refused', detail: `${error.code}: ${error.message}` });
          }
        }
        const key = layer.keyOf(operationOf(name));
        after[label] = {
          effects,
          calls_reaching_dependency: reached,
          dlq_pending: layer.dlq.listPending().length,
          dlq_records: layer.dlq.list().length,
          key_state: layer.idempotency.peek(key)?.status ?? 'absent',
          breaker: layer.breakers.state(operationOf(name).dependency),
        };
      });

      return {
        outcomes,
        attempts,
        delays_ms: delays,
        results,
        refusals,
        after,
        effects,
        effects_by_operation: effectsBy,
        calls_reaching_dependency: reached,
        dlq: layer.dlq.list().map(dlqFigure),
        transitions,
        checkpoints: layer.checkpoints.list().map((c) => ({ checkpoint_id: c.checkpointId, task_id: c.taskId, phase: c.phase })),
      };
    } finally {
      db.close();
    }
  },
};

function dlqFigure(r: DlqRecord): Record<string, unknown> {
  return {
    dlq_id: r.dlqId,
    status: r.status,
    agent_id: r.agentId,
    operation_type: r.operationType,
    attempts: r.attempts,
    retry_count: r.retryCount,
    last_error: r.lastError.code,
    failed_at_ms: r.failedAtMs,
    original_operation: r.originalOperation,
  };
}

function describe(outcome: LayerOutcome<string>): string {
  switch (outcome.kind) {
    case 'succeeded':
      return `${outcome.result} after ${outcome.attempts} attempt${outcome.attempts === 1 ? '' : 's'}${outcome.checkpoint ? `; checkpoint ${outcome.checkpoint.checkpointId} (${outcome.checkpoint.phase})` : ''}`;
    case 'duplicate':
      return outcome.inProgress ? 'the original is still in progress: not run again' : `the original result ${JSON.stringify(outcome.originalResult)}, not run again`;
    case 'circuit_open':
      return `refused by the open circuit of ${outcome.error.dependency}: nothing was sent`;
    case 'dead_lettered':
      return `${outcome.finalError.code} after ${outcome.attempts} attempts${outcome.dlqRecord ? `; kept as ${outcome.dlqRecord.dlqId}` : '; the record stays pending'}`;
    case 'non_retryable':
      return `${outcome.finalError.code} is not retryable: stopped after ${outcome.attempts} attempt${outcome.attempts === 1 ? '' : 's'}, no DLQ record`;
  }
}
