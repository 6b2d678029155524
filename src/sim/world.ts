/**
 * The world a run happens in: everything that outlives a crash of the runner's process, because it is not
 * the process's — the virtual clock, the seeded random streams, the fault plan (a fault fires once per run),
 * the wire's counters, the trace, what the harness saw committed, and the operator replaying a dead letter.
 * A run starts a new world, or resumes one a paused run left (a Checkpoint: src/sim/checkpoint.ts).
 */
import type { Clock } from '../core/clock.js';
import { VirtualClock } from '../core/clock.js';
import { SeededRng } from '../core/rng.js';
import type { DurabilityEvent } from '../durability/events.js';
import { resolveDurability } from '../durability/seams/plan.js';
import { FaultPlan } from '../faults/FaultPlan.js';
import type { FaultSpec } from '../faults/types.js';
import type { KnownEvent } from '../runner/EventStore.js';
import type { Scenario } from '../scenario/types.js';
import type { RunnerState } from '../runner/state.js';
import { CountingRng, type Checkpoint } from './checkpoint.js';
import type { WireCounters } from './FaultyNetwork.js';
import { TraceRecorder } from './TraceRecorder.js';

export interface World {
  clock: Clock & { nowMs(): number };
  trace: TraceRecorder;
  plan: FaultPlan;
  counters: WireCounters;
  wireRng: CountingRng;
  toolRng: CountingRng;
  /** Only drawn from when the backoff pillar waits. */
  backoffRng: SeededRng | null;
  pillars: ReturnType<typeof resolveDurability>;
  /** Every event the harness saw committed, by seq: the log read back at the end reuses their states. */
  committed: Map<number, KnownEvent>;
  /** The DLQ record being replayed (the harness is the operator replaying it: this outlives a crash). */
  replaying: string | null;
  /** The runner's last committed event as the harness saw it (saved, or read back after a crash): its seq and JSON. */
  lastSaved: { seq: number; json: string; state: RunnerState } | null;
  /** What the DLQ says inside a save's transaction, shown after the event it commits with. */
  held: DurabilityEvent[];
  flushHeld(): void;
  toTrace(event: DurabilityEvent): void;
}

/** A world for a run of `scenario` with `extraFaults` added — from its start, or from where `resume` paused. */
export function newWorld(scenario: Scenario, seed: number, extraFaults: readonly FaultSpec[], resume?: Checkpoint): World {
  const clock = new VirtualClock(resume?.clockMs ?? 0);
  const trace = new TraceRecorder(clock);
  const plan = new FaultPlan([...scenario.faults, ...extraFaults]);
  if (resume) {
    for (let i = 0; i < resume.traceLength; i += 1) trace.events.push(resume.trace[i]!);
    trace.step = resume.step;
    resume.fired.forEach((firedAt, i) => (plan.faults[i]!.firedAt = firedAt));
  }
  const pillars = resolveDurability(scenario.durability);
  const toTrace = (event: DurabilityEvent) => trace.emit({ type: 'pillar', event });
  const held: DurabilityEvent[] = [];
  return {
    clock,
    trace,
    plan,
    counters: resume ? { ...resume.counters } : { runnerRequests: 0, otherReservations: 0, callOffset: 0 },
    // One independent stream per consumer: what `new SeededRng(seed).fork(label)` gives (SeededRng.fork names a
    // stream `${seed}/${label}`), without seeding a parent that nothing draws from; the backoff's only if it waits.
    wireRng: CountingRng.after(`${seed}/wire`, resume?.draws.wire ?? 0),
    toolRng: CountingRng.after(`${seed}/tool`, resume?.draws.tool ?? 0),
    backoffRng: pillars.backoff ? new SeededRng(`${seed}/backoff`) : null,
    pillars,
    committed: new Map<number, KnownEvent>(resume?.committed),
    replaying: null,
    lastSaved: resume?.lastSaved ?? null,
    held,
    flushHeld: () => held.splice(0).forEach(toTrace),
    toTrace,
  };
}
