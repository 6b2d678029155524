/**
 * The figures of a run with the durability pillars at the Runner's seams, read from the run value: the
 * backoff waits, the breaker's transitions and refusals from the trace; the dead-letter table as the run
 * ended; the replays the harness made. `expect.durability` is checked against these, and --json prints them.
 */
import type { Run } from '../sim/Run.js';

export interface DurabilityFigures {
  backoff_waits: number;
  backoff_ms: number[];
  breaker: string[];
  refused_by_breaker: number;
  dlq: string[];
  replays: number;
}

export function durabilityFigures(run: Run): DurabilityFigures {
  const figures: DurabilityFigures = { backoff_waits: 0, backoff_ms: [], breaker: [], refused_by_breaker: 0, dlq: run.dlq.map((row) => row.status), replays: run.replays.length };
  for (const event of run.trace) {
    if (event.type !== 'pillar') continue;
    const e = event.event;
    if (e.type === 'retry.backoff') {
      figures.backoff_waits += 1;
      figures.backoff_ms.push(e.delayMs);
    }
    else if (e.type === 'breaker.transition') figures.breaker.push(`${e.from}→${e.to}`);
    else if (e.type === 'breaker.rejected') figures.refused_by_breaker += 1;
  }
  return figures;
}

/**
 * The calls of the whole scenario: every delivery's own count added up. Without a replay that is the final
 * state's `calls`; a replay of a dead-letter record starts a fresh budget, and its calls come on top.
 */
export function totalCalls(run: Run): number | null {
  if (run.state === null) return null;
  const redelivered = (run.redeliveries ?? []).reduce((sum, delivery) => sum + delivery.callsBefore, 0);
  return run.replays.reduce((sum, replay) => sum + replay.callsBefore, 0) + redelivered + run.state.calls;
}
