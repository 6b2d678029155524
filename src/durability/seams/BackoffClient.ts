/**
 * Retry with backoff and jitter, at the Runner's seam (docs/pillars.md §2). Before attempt n > 1 of a pending action
 * the runner waits on the virtual clock: min(initial × multiplier^(n−2), max), spread by the jitter strategy
 * with the seeded rng. There is no second retry loop: the attempts are the step's own — counted, checked
 * against the budget and saved before each one leaves (docs/spec.md §4) — so crash recovery and invariants 3 and 4
 * hold exactly as without the pillar; this wrapper only decides how long an attempt waits before it goes out.
 * `decorrelated` grows from the last wait; a crash forgets it (the new process starts again from the base).
 */
import type { Clock } from '../../core/clock.js';
import type { Rng } from '../../core/rng.js';
import type { ToolAction } from '../../runner/state.js';
import type { AttemptContext, ToolClient } from '../../runner/ToolClient.js';
import type { EventSink } from '../events.js';
import { backoffDelay } from '../retry/backoff.js';
import type { BackoffPlan } from './plan.js';

export interface BackoffClientDeps {
  plan: BackoffPlan;
  clock: Clock;
  rng: Rng;
  events: EventSink;
}

export class BackoffClient implements ToolClient {
  readonly #inner: ToolClient;
  readonly #d: BackoffClientDeps;
  #previousDelayMs: number | undefined;

  constructor(inner: ToolClient, deps: BackoffClientDeps) {
    this.#inner = inner;
    this.#d = deps;
  }

  async execute(action: ToolAction, at: AttemptContext): Promise<unknown> {
    if (at.attempt > 1) {
      const { plan, clock, rng } = this.#d;
      const { delayMs, cappedMs } = backoffDelay(
        {
          strategy: plan.jitter,
          initialDelayMs: plan.initialDelayMs,
          maxDelayMs: plan.maxDelayMs,
          multiplier: plan.multiplier,
          failedAttemptIndex: at.attempt - 2,
          ...(this.#previousDelayMs !== undefined ? { previousDelayMs: this.#previousDelayMs } : {}),
        },
        rng,
      );
      this.#d.events({ type: 'retry.backoff', atMs: clock.nowMs(), operationType: action.name, afterAttempt: at.attempt - 1, delayMs, cappedMs, strategy: plan.jitter });
      this.#previousDelayMs = delayMs;
      clock.advance(delayMs);
    }
    return await this.#inner.execute(action, at);
  }
}
