/**
 * The circuit breaker at the Runner's seam (docs/pillars.md §3): a ToolClient in front of the network, asked before
 * and told after every attempt — not once per operation, so the runner's own retries are what fill its window.
 *
 * - Only transient failures count against the dependency. A ContractError (STALE_VERSION, UNKNOWN_ITEM, …)
 *   is the tool answering — it is reported as a success: the route is up, the request was wrong.
 * - An open breaker refuses the attempt before the wire: a definite TransientError `circuit_open` (nothing
 *   was sent, so nothing can have happened). The attempt was already counted and saved by the step — a
 *   refused attempt costs one call against max_calls and one attempt against max_retries, like any failed
 *   attempt: failing fast spares the dependency, not the budget, and the runner's rules stay the chapter's.
 * - A crash reports nothing: the process is gone. A probe in flight is re-armed after probe_timeout_seconds.
 * The breaker's row lives in the runner's own database, so it survives a crash exactly as committed.
 */
import { TransientError, isContractError, isTransientError } from '../../inventory/errors.js';
import type { ToolAction } from '../../runner/state.js';
import type { AttemptContext, ToolClient } from '../../runner/ToolClient.js';
import type { CircuitBreaker } from '../breaker/CircuitBreaker.js';

/** The message of the TransientError an open breaker answers with (the runner saves `transient:circuit_open`). */
export const CIRCUIT_OPEN = 'circuit_open';

export class BreakerClient implements ToolClient {
  readonly #inner: ToolClient;
  readonly #breaker: CircuitBreaker;

  constructor(inner: ToolClient, breaker: CircuitBreaker) {
    this.#inner = inner;
    this.#breaker = breaker;
  }

  async execute(action: ToolAction, at: AttemptContext): Promise<unknown> {
    // On SQLite the breaker answers at once, and no await is added (src/runner/EventStore.ts says why).
    const asked = this.#breaker.connection.run(this.#breaker.beforeCallOps());
    const admission = asked instanceof Promise ? await asked : asked;
    if (!admission.admitted) throw new TransientError(CIRCUIT_OPEN, { definite: true, cause: admission.error });
    const { ticket } = admission;
    let value: unknown;
    try {
      value = await this.#inner.execute(action, at);
    } catch (error) {
      const told = isTransientError(error) ? this.#tell(false, ticket) : isContractError(error) ? this.#tell(true, ticket) : undefined;
      if (told instanceof Promise) await told;
      throw error;
    }
    const told = this.#tell(true, ticket);
    if (told instanceof Promise) await told;
    return value;
  }

  /** The report of an admitted call: at once on SQLite, a promise to await on PostgreSQL. */
  #tell(success: boolean, ticket: number): boolean | Promise<boolean> {
    return this.#breaker.connection.run(this.#breaker.afterCallOps(success, ticket));
  }
}
