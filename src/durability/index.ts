/**
 * The five durability pillars and the layer that composes them (docs/pillars.md), as the package's
 * `faultlab/durability` entry. The public API is exactly what this file re-exports: everything a user's code
 * needs to build the stores and the layer — the database, and the virtual clock and seeded rng every
 * constructor asks for (the pillars never read the wall clock nor roll unseeded dice) — and what they return.
 */
export * from './errors.js';
export type { BreakerState, DurabilityEvent, EventSink, OperationError, StateTransition } from './events.js';
export { openDatabase, crashAndReopen, type Db, type OpenOptions } from '../core/storage.js';
export { VirtualClock, type Clock } from '../core/clock.js';
export { SeededRng, type Rng } from '../core/rng.js';

export type { BreakerConfig, CheckpointConfig, DlqConfig, DurabilityConfig, IdempotencyConfig, JitterStrategy, RetryPolicy } from './config/types.js';
export { JITTER_STRATEGIES } from './config/types.js';
export { DEFAULT_DURABILITY_CONFIG, defaultDurabilityConfig, FALLBACK_OPERATION_TYPE } from './config/defaults.js';
export { loadDurabilityConfig, applyConfigOverrides } from './config/load.js';

export { idempotencyKey, contentHash, keyByteLength } from '../core/key.js';
export { IdempotencyStore, type CheckResult, type IdempotencyRecord, type IdempotencyStoreOptions, type LeaseExpired, type RecordStatus } from './idempotency/IdempotencyStore.js';

export { validatePolicy, classifyError, type ErrorClass } from './retry/RetryPolicy.js';
export { backoffDelay, cappedDelayMs, type Backoff, type BackoffInput } from './retry/backoff.js';
export { RetryEngine, succeed, fail, type AttemptResult, type RetryEngineOptions, type RetryOutcome } from './retry/RetryEngine.js';

export { validateBreakerConfig } from './breaker/config.js';
export type { BreakerSnapshot, Probe } from './breaker/machine.js';
export { CircuitBreaker, type Admission, type CircuitBreakerOptions, type TransitionListener } from './breaker/CircuitBreaker.js';
export { BreakerRegistry, type BreakerRegistryOptions } from './breaker/BreakerRegistry.js';

export { CheckpointStore, type Checkpoint, type CheckpointStoreOptions } from './checkpoint/CheckpointStore.js';
export { DeadLetterQueue, type DeadLetterQueueOptions, type DlqRecord, type DlqStatus, type EnqueueInput } from './dlq/DeadLetterQueue.js';

export {
  DurabilityLayer,
  type CallContext,
  type DependencyCall,
  type DlqEnvelope,
  type DurabilityLayerOptions,
  type DurableOperation,
  type LayerOutcome,
} from './DurabilityLayer.js';

