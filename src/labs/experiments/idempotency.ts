import { idempotencyKey } from '../../core/key.js';
import { openDatabase } from '../../core/storage.js';
import { IdempotencyStore, type CheckResult } from '../../durability/idempotency/IdempotencyStore.js';
import type { PathSegment } from '../../scenario/yamlSource.js';
import type { LabContext } from '../LabContext.js';
import { ScenarioInputError } from '../ScenarioInputError.js';
import { isTimeStep, onlyKey, runTimeStep, type Experiment, type TimeStep } from './types.js';
import { msg } from '../../render/words/index.js';
import type { Param } from '../../core/message.js';

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
  meanings: () => ({
    answers: msg('lab.idempotency.meaning.answers'),
    results: msg('lab.idempotency.meaning.results'),
    in_progress: msg('lab.idempotency.meaning.in_progress'),
    window_ends_at_ms: msg('lab.idempotency.meaning.window_ends_at_ms'),
    released: msg('lab.idempotency.meaning.released'),
    effects: msg('lab.idempotency.meaning.effects'),
    effects_by_operation: msg('lab.idempotency.meaning.effects_by_operation'),
    records: msg('lab.idempotency.meaning.records'),
  }),

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
      if (!spec) throw new ScenarioInputError(msg('lab.input.noOperation', { name, known: Object.keys(setup.operations).join(', ') }), path);
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
    const outcome = (label: string, kind: string, detail: Param): void => ctx.emit({ type: 'lab.outcome', label, kind, detail });
    const duplicateDetail = (r: Extract<CheckResult, { kind: 'duplicate' }>): Param =>
      r.inProgress ? msg('lab.idempotency.stillInProgress') : msg('lab.idempotency.handedOriginal', { result: String(JSON.stringify(r.originalResult)) });

    try {
      setup.steps.forEach((step, index) => {
        const action = onlyKey(step, index);
        if (isTimeStep(step)) return runTimeStep(ctx, step, index);
        if (!ACTIONS.includes(action)) throw new ScenarioInputError(msg('lab.input.unknownActionOf', { action, known: ACTIONS.join(', ') }), ['steps', index]);
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
          outcome(label, 'new', msg('lab.idempotency.workRuns', { n: effects, result: JSON.stringify(result) }));
        } else if (action === 'check') {
          const r = store.check(key);
          answered(label, r);
          outcome(label, r.kind, r.kind === 'new' ? msg('lab.idempotency.nobodyHolds') : duplicateDetail(r));
        } else if (action === 'claim') {
          const r = store.checkAndRecord(key, { status: 'in_progress' });
          answered(label, r);
          outcome(label, r.kind, r.kind === 'new' ? msg('lab.idempotency.claimed') : duplicateDetail(r));
        } else {
          released[label] = store.release(key);
          outcome(label, 'released', released[label] ? msg('lab.idempotency.released') : msg('lab.idempotency.nothingToRelease'));
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
