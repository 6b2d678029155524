import { VirtualClock } from '../../core/clock.js';
import { sameJson } from '../../core/canonical.js';
import type { JitterStrategy, RetryPolicy } from '../../durability/config/types.js';
import { ConfigError } from '../../durability/errors.js';
import { RetryEngine, fail } from '../../durability/retry/RetryEngine.js';
import { validatePolicy } from '../../durability/retry/RetryPolicy.js';
import type { LabContext } from '../LabContext.js';
import { fromConfigError, ScenarioInputError } from '../ScenarioInputError.js';
import { requireKnownErrorCode } from './errorCodes.js';
import type { Experiment } from './types.js';
import { msg } from '../../render/words/index.js';

/**
 * The redelivery schedule, made visible: each run sends one operation whose every attempt fails with the
 * same retryable error, so every backoff delay of the policy is spent. Each run draws its jitter from its
 * own seeded stream; running it again from the same seed must give the same delays.
 */

interface Run {
  label: string;
  operation_type: string;
  max_attempts?: number;
  initial_delay_ms?: number;
  max_delay_ms?: number;
  multiplier?: number;
  jitter?: JitterStrategy;
}

interface Setup {
  error_code: string;
  runs: Run[];
}

export const backoffExperiment: Experiment = {
  meanings: () => ({
    delays_ms: msg('lab.backoff.meaning.delays_ms'),
    capped_ms: msg('lab.backoff.meaning.capped_ms'),
    attempts: msg('lab.backoff.meaning.attempts'),
    sent_to_dlq: msg('lab.backoff.meaning.sent_to_dlq'),
    strategy: msg('lab.backoff.meaning.strategy'),
    within_jitter_bounds: msg('lab.backoff.meaning.within_jitter_bounds'),
    same_seed_same_delays: msg('lab.backoff.meaning.same_seed_same_delays'),
  }),

  run(ctx: LabContext): Record<string, unknown> {
    const setup = ctx.scenario as unknown as Setup;
    requireKnownErrorCode(ctx.config, setup.error_code, ['error_code']);
    const figures = { delays_ms: {} as Record<string, number[]>, capped_ms: {} as Record<string, number[]>, attempts: {} as Record<string, number>, sent_to_dlq: {} as Record<string, boolean>, strategy: {} as Record<string, string> };
    let within = true;
    let same = true;
    setup.runs.forEach((run, index) => {
      const policy = policyFor(ctx, run, index);
      ctx.step(
        msg('lab.backoff.run', {
          label: run.label,
          op: run.operation_type,
          attempts: policy.maxAttempts,
          from: policy.initialDelayMs,
          to: policy.maxDelayMs,
          multiplier: policy.multiplier,
          jitter: policy.jitter,
          code: setup.error_code,
        }),
      );
      const first = ctx.events.length;
      const engine = new RetryEngine({ clock: ctx.clock, rng: ctx.rng.fork(`backoff/${run.label}`), policies: { [policy.operationType]: policy }, events: ctx.sink });
      const outcome = engine.execute(policy.operationType, () => fail(setup.error_code, `${setup.error_code} (scripted)`, setup.error_code !== 'NETWORK_TIMEOUT'));
      const capped = ctx.events.slice(first).flatMap((e) => (e.type === 'retry.backoff' ? [e.cappedMs] : []));
      figures.delays_ms[run.label] = outcome.delaysMs;
      figures.capped_ms[run.label] = capped;
      figures.attempts[run.label] = outcome.attempts;
      figures.sent_to_dlq[run.label] = outcome.sentToDlq;
      figures.strategy[run.label] = policy.jitter;
      within &&= outcome.delaysMs.every((d, i) => inBounds(policy, d, capped[i] ?? Number.NaN));

      const again = new RetryEngine({ clock: new VirtualClock(), rng: ctx.rng.fork(`backoff/${run.label}`), policies: { [policy.operationType]: policy } });
      const replayed = again.execute(policy.operationType, () => fail(setup.error_code, 'again', true)).delaysMs;
      same &&= sameJson(replayed, outcome.delaysMs);
    });
    return { ...figures, within_jitter_bounds: within, same_seed_same_delays: same };
  },
};

function policyFor(ctx: LabContext, run: Run, index: number): RetryPolicy {
  const base = ctx.config.retry.policies[run.operation_type];
  if (!base) {
    const known = Object.keys(ctx.config.retry.policies).join(', ');
    throw new ScenarioInputError(msg('lab.input.noPolicy', { label: run.label, op: JSON.stringify(run.operation_type), known }), ['runs', index, 'operation_type']);
  }
  try {
    return validatePolicy(
      {
        ...base,
        ...(run.max_attempts === undefined ? {} : { maxAttempts: run.max_attempts }),
        ...(run.initial_delay_ms === undefined ? {} : { initialDelayMs: run.initial_delay_ms }),
        ...(run.max_delay_ms === undefined ? {} : { maxDelayMs: run.max_delay_ms }),
        ...(run.multiplier === undefined ? {} : { multiplier: run.multiplier }),
        ...(run.jitter === undefined ? {} : { jitter: run.jitter }),
      },
      `runs.${index}`,
    );
  } catch (error) {
    // e.g. max_delay_ms below the initial delay: the field is the run's own (runs.2.max_delay_ms)
    if (error instanceof ConfigError) throw fromConfigError(error);
    throw error;
  }
}

/** The range each strategy promises (see retry/backoff.ts). */
export function inBounds(policy: RetryPolicy, delayMs: number, cappedMs: number): boolean {
  switch (policy.jitter) {
    case 'none':
      return delayMs === cappedMs;
    case 'additive30':
      return delayMs >= cappedMs && delayMs < 1.3 * cappedMs;
    case 'full':
      return delayMs >= 0 && delayMs < cappedMs;
    case 'equal':
      return delayMs >= cappedMs / 2 && delayMs < cappedMs;
    case 'decorrelated':
      return delayMs >= Math.min(policy.initialDelayMs, policy.maxDelayMs) && delayMs <= cappedMs;
  }
}
