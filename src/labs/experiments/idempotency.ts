import { idempotencyKey } from '../../core/key.js';
import { openDatabase } from '../../core/storage.js';
import { IdempotencyStore, type CheckResult } from '../../durability/idempotency/IdempotencyStore.js';
import type { PathSegment } from '../../scenario/yamlSource.js';
import type { LabContext } from '../LabContext.js';
import { ScenarioInputError } from '../ScenarioInputError.js';
import { isTimeStep, onlyKey, runTimeStep, type Experiment, type TimeStep } from './types.js';

/**
 * The tracking number on its own: named operations against one IdempotencyStore, step by step, on the
 * virtual clock. A `submit` is what a careful caller does — checkAndRecord, and only when told New do the
 * work (one counted effect, result r-N) and record its result; a duplicate hands back the original result
 * and does nothing. `check` only asks; `claim` takes the key and leaves its placeholder (the work still
 * running); `release` removes a placeholder whose work failed. The figures are what the store answered and
 * how many times the work ran: the window's edges show as New where a Duplicate was hoped for.
 */

interface OperationSpec {
  agent_id: string;
  operation_type: string;
  content: unknown;
}

interface Labelled {
  operation: string;
  label: string;
}

type Step = TimeStep | { submit: Labelled } | { check: Labelled } | { claim: Labelled } | { release: Labelled };

const ACTIONS = ['submit', 'check', 'claim', 'release'];

interface Setup {
  operations: Record<string, OperationSpec>;
  steps: Step[];
}

export const idempotencyExperiment: Experiment = {
  meanings: {
    answers: 'what the store answered each step: new or duplicate',
    results: 'the result each step ended with: its own work’s, or the original’s for a duplicate',
    in_progress: 'for each duplicate: whether the original was still in progress (only a placeholder)',
    window_ends_at_ms: 'for each duplicate: when the original’s dedup window ends, in virtual ms',
    released: 'for each release step: whether a placeholder was removed',
    effects: 'times the work ran in all (the number a window too short doubles)',
    effects_by_operation: 'times the work ran, per operation',
    records: 'rows in the store at the end, expired ones included until a cleanup',
  },

  run(ctx: LabContext): Record<string, unknown> {
    const setup = ctx.scenario as unknown as Setup;
    const db = openDatabase();
    const store = new IdempotencyStore({ db, clock: ctx.clock, config: ctx.config.idempotency, events: ctx.sink });
    const answers: Record<string, string> = {};
    const results: Record<string, unknown> = {};
    const inProgress: Record<string, boolean> = {};
    const windowEnds: Record<string, number> = {};
    const released: Record<string, boolean> = {};
    const effectsBy: Record<string, number> = Object.fromEntries(Object.keys(setup.operations).map((name) => [name, 0]));
    let effects = 0;

    const keyOf = (name: string, path: readonly PathSegment[]): string => {
      const spec = setup.operations[name];
      if (!spec) throw new ScenarioInputError(`no operation "${name}" (operations: ${Object.keys(setup.operations).join(', ')})`, path);
      return idempotencyKey(spec.agent_id, spec.operation_type, spec.content);
    };
    const answered = (label: string, r: CheckResult): void => {
      answers[label] = r.kind;
      if (r.kind === 'duplicate') {
        results[label] = r.originalResult;
        inProgress[label] = r.inProgress;
        windowEnds[label] = r.dedupWindowExpiresAtMs;
      }
    };
    const outcome = (label: string, kind: string, detail: string): void => ctx.emit({ type: 'lab.outcome', label, kind, detail });
    const duplicateDetail = (r: Extract<CheckResult, { kind: 'duplicate' }>): string =>
      r.inProgress ? 'the original is still in progress: nothing to hand back, not run again' : `handed the original result ${JSON.stringify(r.originalResult)}, not run again`;

    try {
      setup.steps.forEach((step, index) => {
        const action = onlyKey(step, index);
        if (isTimeStep(step)) return runTimeStep(ctx, step, index);
        if (!ACTIONS.includes(action)) throw new ScenarioInputError(`unknown action ${action} (one of ${ACTIONS.join(', ')}, wait_ms, at_ms, note)`, ['steps', index]);
        const { operation: name, label } = (step as Record<string, Labelled>)[action] as Labelled;
        const key = keyOf(name, ['steps', index, action, 'operation']);
        ctx.step(`${action} ${name} [${label}]`);
        if (action === 'submit') {
          const r = store.checkAndRecord(key, { status: 'in_progress' });
          answered(label, r);
          if (r.kind === 'duplicate') return outcome(label, 'duplicate', duplicateDetail(r));
          effects += 1;
          effectsBy[name] = (effectsBy[name] ?? 0) + 1;
          const result = `r-${effects}`;
          store.record(key, result);
          results[label] = result;
          outcome(label, 'new', `the work runs (effect #${effects}) and its result ${JSON.stringify(result)} is recorded`);
        } else if (action === 'check') {
          const r = store.check(key);
          answered(label, r);
          outcome(label, r.kind, r.kind === 'new' ? 'nobody holds the key: the next claim would be New' : duplicateDetail(r));
        } else if (action === 'claim') {
          const r = store.checkAndRecord(key, { status: 'in_progress' });
          answered(label, r);
          outcome(label, r.kind, r.kind === 'new' ? 'the key is taken; the work is in progress (its placeholder is all there is)' : duplicateDetail(r));
        } else {
          released[label] = store.release(key);
          outcome(label, 'released', released[label] ? 'the placeholder is removed: the key is free again' : 'nothing to release (a recorded result is never released)');
        }
      });
      return {
        answers,
        results,
        in_progress: inProgress,
        window_ends_at_ms: windowEnds,
        released,
        effects,
        effects_by_operation: effectsBy,
        records: store.size(),
      };
    } finally {
      db.close();
    }
  },
};
