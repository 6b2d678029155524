/**
 * Every interleaving of the two sessions' turns, each played from the starting rows: a depth-first walk where
 * a play follows a prefix and then moves the first session that can (A before B); every turn past the prefix
 * where the other session could have moved instead is a new prefix to play. Each complete interleaving is
 * played exactly once, in a fixed order, so the tally and the first broken one are the same every time.
 */
import { violations, type Violation } from './invariants.js';
import type { Stage } from './play.js';
import type { Protocol, SessionName, Setup } from './protocols.js';

export interface Explored {
  /** Complete interleavings played. */
  interleavings: number;
  /** Those that broke the family's invariant. */
  broken: number;
  /** The first broken one (its schedule, one session per turn) and what it broke; null if none. */
  first: { schedule: SessionName[]; violations: Violation[] } | null;
}

export async function exploreAll(stage: Stage, protocol: Protocol, setup: Setup): Promise<Explored> {
  const pending: SessionName[][] = [[]];
  let interleavings = 0;
  let broken = 0;
  let first: Explored['first'] = null;
  while (pending.length > 0) {
    const prefix = pending.pop()!;
    const played = await stage.play(protocol, setup, prefix);
    interleavings += 1;
    const found = violations(protocol.family, setup, played.answers, played.final);
    const schedule = played.turns.map((t) => t.chosen);
    if (found.length > 0) {
      broken += 1;
      first ??= { schedule, violations: found };
    }
    // Alternatives: the deepest is played next (pushed last), so the walk goes in schedule order, A before B.
    const next: SessionName[][] = [];
    for (let turn = prefix.length; turn < played.turns.length; turn++) {
      for (const other of played.turns[turn]!.runnable) if (other !== schedule[turn]) next.push([...schedule.slice(0, turn), other]);
    }
    pending.push(...next);
  }
  return { interleavings, broken, first };
}
