import { CircuitBreaker } from '../../durability/breaker/CircuitBreaker.js';
import { failureRate } from '../../durability/breaker/machine.js';
import type { StateTransition } from '../../durability/events.js';
import { openDatabase } from '../../core/storage.js';
import { round4, type LabContext } from '../LabContext.js';
import { ScenarioInputError } from '../ScenarioInputError.js';
import { isTimeStep, onlyKey, runTimeStep, type Experiment, type TimeStep } from './types.js';
import { msg } from '../../render/words/index.js';

/**
 * One dependency's breaker, driven call by call: every call asks beforeCall first; an admitted call is
 * reported at once (`calls`) or held in flight until a `report` step — or never, like a crashed probe.
 */

type Result = 'ok' | 'fail';
type Step =
  | TimeStep
  | { calls: { n: number; result: Result; gap_ms?: number } }
  | { start: string }
  | { report: { call: string; result: Result } }
  | { snapshot: string }
  | { force_close: true };

interface Setup {
  dependency: string;
  steps: Step[];
}

export const breakerExperiment: Experiment = {
  meanings: () => ({
    calls_made: msg('lab.breaker.meaning.calls_made'),
    calls_reaching_dependency: msg('lab.breaker.meaning.calls_reaching_dependency'),
    rejected_while_open: msg('lab.breaker.meaning.rejected_while_open'),
    rejected_while_half_open: msg('lab.breaker.meaning.rejected_while_half_open'),
    transitions: msg('lab.breaker.meaning.transitions'),
    transition_payloads: msg('lab.breaker.meaning.transition_payloads'),
    final_state: msg('lab.breaker.meaning.final_state'),
    snapshots: msg('lab.breaker.meaning.snapshots'),
    probes_rearmed: msg('lab.breaker.meaning.probes_rearmed'),
    reports_ignored: msg('lab.breaker.meaning.reports_ignored'),
  }),

  run(ctx: LabContext): Record<string, unknown> {
    const setup = ctx.scenario as unknown as Setup;
    const config = ctx.config.circuitBreaker.dependencies[setup.dependency];
    if (!config) {
      const known = Object.keys(ctx.config.circuitBreaker.dependencies).join(', ');
      throw new ScenarioInputError(msg('lab.input.noBreaker', { dependency: JSON.stringify(setup.dependency), known }), ['dependency']);
    }
    const db = openDatabase();
    const cb = new CircuitBreaker({ db, clock: ctx.clock, config, events: ctx.sink });
    const transitions: StateTransition[] = [];
    cb.onTransition((t) => transitions.push(t));
    const held = new Set<string>();
    const snapshots: Record<string, unknown> = {};
    let made = 0;
    let reached = 0;
    let rejectedOpen = 0;
    let rejectedHalfOpen = 0;
    let ignored = 0;

    const call = (result: Result | 'held'): boolean => {
      made += 1;
      ctx.emit({ type: 'breaker.call', n: made, dependency: setup.dependency, answer: result });
      const admission = cb.beforeCall();
      if (!admission.admitted) {
        if (admission.error.state === 'open') rejectedOpen += 1;
        else rejectedHalfOpen += 1;
        return false;
      }
      reached += 1;
      if (result !== 'held' && !cb.afterCall(result === 'ok')) ignored += 1;
      return true;
    };

    let finalState: string;
    try {
      setup.steps.forEach((step, index) => {
        const action = onlyKey(step, index);
        if (isTimeStep(step)) return runTimeStep(ctx, step, index);
        if ('calls' in step) {
          for (let i = 0; i < step.calls.n; i += 1) {
            call(step.calls.result);
            if (step.calls.gap_ms) ctx.clock.advance(step.calls.gap_ms);
          }
        } else if ('start' in step) {
          if (held.has(step.start)) throw new ScenarioInputError(msg('lab.input.alreadyInFlight', { call: step.start }), ['steps', index, 'start']);
          if (call('held')) held.add(step.start);
        } else if ('report' in step) {
          if (!held.delete(step.report.call)) {
            throw new ScenarioInputError(msg('lab.input.notInFlight', { call: step.report.call }), ['steps', index, 'report', 'call']);
          }
          ctx.step(msg('lab.breaker.heldReports', { call: step.report.call, result: step.report.result }));
          if (!cb.afterCall(step.report.result === 'ok')) ignored += 1;
        } else if ('snapshot' in step) {
          const s = cb.snapshot();
          const rate = failureRate(s.window);
          snapshots[step.snapshot] = {
            state: s.state,
            failure_rate: rate === null ? null : round4(rate),
            window_length: s.window.length,
            probes_in_flight: s.probes.length,
            probe_successes: s.probeSuccesses,
          };
          const failures = s.window.filter(Boolean).length;
          const shown = rate === null ? msg('lab.breaker.emptyWindow') : `${failures}/${s.window.length} = ${round4(rate)}`;
          ctx.step(msg('lab.breaker.snapshot', { name: step.snapshot, state: s.state, rate: shown }));
        } else if ('force_close' in step) {
          ctx.step(msg('lab.breaker.forced'));
          cb.forceClose();
        } else {
          throw new ScenarioInputError(msg('lab.input.unknownAction', { action }), ['steps', index]);
        }
      });
      finalState = cb.state();
    } finally {
      db.close();
    }

    return {
      calls_made: made,
      calls_reaching_dependency: reached,
      rejected_while_open: rejectedOpen,
      rejected_while_half_open: rejectedHalfOpen,
      transitions: transitions.map((t) => `${t.from}→${t.to}`),
      transition_payloads: transitions.map((t) => ({
        dependency: t.dependency,
        from: t.from,
        to: t.to,
        ...(t.failureRate === undefined ? {} : { failure_rate: round4(t.failureRate) }),
        request_count: t.requestCount,
        ...(t.resetTimeoutSeconds === undefined ? {} : { reset_timeout_seconds: t.resetTimeoutSeconds }),
        reason: t.reason,
        at_ms: t.atMs,
      })),
      final_state: finalState,
      snapshots,
      probes_rearmed: ctx.events.filter((e) => e.type === 'breaker.probe_rearmed').length,
      reports_ignored: ignored,
    };
  },
};
