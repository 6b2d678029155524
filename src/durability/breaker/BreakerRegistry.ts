import type { Clock } from '../../core/clock.js';
import { DEFAULT_DURABILITY_CONFIG } from '../config/defaults.js';
import type { BreakerConfig } from '../config/types.js';
import { UnknownDependencyError } from '../errors.js';
import type { BreakerState, EventSink, StateTransition } from '../events.js';
import type { StoreDb } from '../store.js';
import { CircuitBreaker, type Admission, type TransitionListener } from './CircuitBreaker.js';
import { validateBreakerConfig } from './config.js';
import type { BreakerSnapshot } from './machine.js';

/**
 * One breaker per dependency, all on one database, so that a dead memory_service closes its own route
 * and leaves wiki_service's open. Subscribers hear every dependency's transitions. `upsertConfig`
 * validates first (a rejected update changes nothing) and keeps the runtime state of an existing breaker.
 */

export interface BreakerRegistryOptions {
  db: StoreDb;
  clock: Clock;
  configs?: Record<string, BreakerConfig>;
  events?: EventSink;
}

export class BreakerRegistry {
  readonly #db: StoreDb;
  readonly #clock: Clock;
  readonly #events: EventSink | undefined;
  readonly #breakers = new Map<string, CircuitBreaker>();
  readonly #listeners = new Set<TransitionListener>();

  constructor(options: BreakerRegistryOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#events = options.events;
    for (const config of Object.values(options.configs ?? DEFAULT_DURABILITY_CONFIG.circuitBreaker.dependencies)) this.upsertConfig(config);
  }

  dependencies(): string[] {
    return [...this.#breakers.keys()].sort();
  }

  /** Validate, then add a breaker or swap an existing one's thresholds (its state is kept). */
  upsertConfig(config: BreakerConfig): void {
    const valid = validateBreakerConfig(config);
    const existing = this.#breakers.get(valid.dependency);
    if (existing) {
      existing.updateConfig(valid);
      return;
    }
    const breaker = new CircuitBreaker({ db: this.#db, clock: this.#clock, config: valid, ...(this.#events ? { events: this.#events } : {}) });
    breaker.onTransition((t) => this.#notify(t));
    this.#breakers.set(valid.dependency, breaker);
  }

  breaker(dependency: string): CircuitBreaker {
    const breaker = this.#breakers.get(dependency);
    if (!breaker) throw new UnknownDependencyError(dependency, this.dependencies());
    return breaker;
  }

  beforeCall(dependency: string): Admission {
    return this.breaker(dependency).beforeCall();
  }

  /** Forwarded as is: pass the ticket of the admission when you have it (see CircuitBreaker.afterCall). */
  afterCall(dependency: string, success: boolean, ticket?: number): boolean {
    return this.breaker(dependency).afterCall(success, ticket);
  }

  forceClose(dependency: string): void {
    this.breaker(dependency).forceClose();
  }

  state(dependency: string): BreakerState {
    return this.breaker(dependency).state();
  }

  snapshot(dependency: string): BreakerSnapshot {
    return this.breaker(dependency).snapshot();
  }

  onTransition(listener: TransitionListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(transition: StateTransition): void {
    for (const listener of this.#listeners) listener(transition);
  }
}
