import { CircuitBreaker } from '../../durability/breaker/CircuitBreaker.js';
import { failureRate } from '../../durability/breaker/machine.js';
import type { StateTransition } from '../../durability/events.js';
import { openDatabase } from '../../core/storage.js';
import { round4, type LabContext } from '../LabContext.js';
import { ScenarioInputError } from '../ScenarioInputError.js';
import { isTimeStep, onlyKey, runTimeStep, type Experiment, type TimeStep } from './types.js';

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
  meanings: {
    calls_made: 'calls made; each asked the breaker first',
    calls_reaching_dependency: 'calls the breaker let through to the dependency',
    rejected_while_open: 'calls refused while open: they never reached the dependency',
    rejected_while_half_open: 'calls refused while half-open because every probe slot was taken',
    transitions: 'breaker state changes, in order',
    transition_payloads: 'the StateTransition payloads, in order',
    final_state: 'the breaker state at the end',
    snapshots: 'the breaker at the snapshot steps',
    probes_rearmed: 'probes never reported whose slot was re-armed after probe_timeout_seconds',
    reports_ignored: 'reports that arrived with no probe in flight, and were ignored',
  },

  run(ctx: LabContext): Record<string, unknown> {
    const setup = ctx.scenario as unknown as Setup;
    const config = ctx.config.circuitBreaker.dependencies[setup.dependency];
    if (!config) {
      const known = Object.keys(ctx.config.circuitBreaker.dependencies).join(', ');
      throw new ScenarioInputError(`no circuit breaker is configured for ${JSON.stringify(setup.dependency)} (configured: ${known}; add one under config.circuit_breaker.dependencies)`, ['dependency']);
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
          if (held.has(step.start)) throw new ScenarioInputError(`call ${step.start} is already in flight`, ['steps', index, 'start']);
          if (call('held')) held.add(step.start);
        } else if ('report' in step) {
          if (!held.delete(step.report.call)) {
            throw new ScenarioInputError(`no call "${step.report.call}" in flight (never started, refused, or already reported)`, ['steps', index, 'report', 'call']);
          }
          ctx.step(`the held call ${step.report.call} reports: ${step.report.result}`);
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
          ctx.step(`snapshot ${step.snapshot}: ${s.state}; failure rate ${rate === null ? '— (empty window)' : `${failures}/${s.window.length} = ${round4(rate)}`}`);
        } else if ('force_close' in step) {
          ctx.step('an operator forces the breaker closed');
          cb.forceClose();
        } else {
          throw new ScenarioInputError(`unknown action ${action}`, ['steps', index]);
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
