/**
 * One scheduler for every actor of a many-worker run (STYLE.md 15: FoundationDB's simulation, TigerBeetle's
 * VOPR): the workers and the sweeper move only when it says so, one at a time, and only at the points where a
 * real system could be interrupted — a request going on the wire, a database statement — which are the awaits
 * of the harness (docs/architecture.md, "The decision").
 *
 * Who moves next is a pure function of the run so far and the given schedule:
 * - an actor is ready when its time has come: at once after a turn, `ms` later after a sleep (a pause, a poll,
 *   a restart), after any other actor's move when a statement met a write lock (BUSY);
 * - by default the ready actor that has waited longest moves (earliest due, then first parked): no actor is
 *   starved, and two actors that want the same thing at the same instant race;
 * - where two or more are ready the scheduler makes a CHOICE, numbered from 1; a schedule — a list of
 *   `{ choice, run }`, plain data a scenario or a replay file carries — names another ready actor for some
 *   choices. Every choice made is recorded (the explorer enumerates the others, bounded by how many differ from
 *   the default);
 * - when nobody is ready the virtual clock jumps to the next actor's time or timer.
 * The seed enters through what the actors draw (each request's latency), never through this order.
 */
import type { Clock } from '../../core/clock.js';
import type { ScheduleChoice } from '../../scenario/types.js';
import type { TraceRecorder } from '../TraceRecorder.js';

/** One choice as the run made it: who could move, who did, and whether that was the default. */
export interface ChoiceRecord {
  choice: number;
  t: number;
  /** The trace's length when it was made: the choice comes after those events. */
  at: number;
  ready: string[];
  ran: string;
  byDefault: boolean;
}

/** What an actor's code is handed: its three ways to give up its turn. */
export interface ActorHandle {
  readonly name: string;
  /** An interleaving point: another actor may move before this one goes on. */
  turn(): Promise<void>;
  /** Wait `ms` of virtual time (a pause, a poll, a restart); the others move meanwhile. */
  sleep(ms: number): Promise<void>;
  /** A statement met another connection's write lock: wait until some other actor has moved, then try again. */
  busy(): Promise<void>;
  /**
   * Wait until `condition` holds (checked between any two moves of the others), or until the clock reaches
   * `deadline`, whichever comes first; then queue up behind those already waiting.
   */
  until(condition: () => boolean, deadline: number): Promise<void>;
}

interface Actor {
  name: string;
  /** Virtual time from which it may move. */
  due: number;
  /** When it parked: the earlier goes first among actors due at the same time. */
  order: number;
  /** Waiting for a lock since this turn: ready again only after another turn. */
  blockedAt: number | null;
  /** Resolves its park: set while it waits for its turn. */
  resume: (() => void) | null;
  /** Waiting for this to hold (until its due time at the latest). */
  condition: (() => boolean) | null;
  done: boolean;
}

/** Why a run stopped before everything was finished: too many turns, or nobody able to move ever again. */
export type Cut = 'turns' | 'deadlock';

export class Scheduler {
  readonly choices: ChoiceRecord[] = [];
  /** Schedule entries that named a ready actor at their choice. */
  readonly applied = new Set<number>();
  /** Exceptions that escaped an actor's code (a bug, or a runner that threw): the run records the first. */
  readonly errors: Array<{ actor: string; error: unknown }> = [];
  turns = 0;
  cut: Cut | null = null;
  readonly #clock: Clock;
  readonly #trace: TraceRecorder;
  readonly #wanted: Map<number, string>;
  readonly #maxTurns: number;
  readonly #actors: Actor[] = [];
  #timers: Array<{ at: number; order: number; fire: () => void }> = [];
  #seq = 0;
  /** Resolves the loop's wait while an actor moves: called when that actor parks again, or ends. */
  #parked: (() => void) | null = null;

  constructor(clock: Clock, trace: TraceRecorder, schedule: readonly ScheduleChoice[], maxTurns: number) {
    this.#clock = clock;
    this.#trace = trace;
    this.#wanted = new Map(schedule.map((entry) => [entry.choice, entry.run]));
    this.#maxTurns = maxTurns;
  }

  /** A new actor, ready now; its code starts at its first turn. */
  spawn(name: string, body: (self: ActorHandle) => Promise<void>): void {
    const actor: Actor = { name, due: this.#clock.nowMs(), order: ++this.#seq, blockedAt: null, resume: null, condition: null, done: false };
    this.#actors.push(actor);
    const self: ActorHandle = {
      name,
      turn: () => this.#park(actor, this.#clock.nowMs(), false),
      sleep: (ms) => this.#park(actor, this.#clock.nowMs() + ms, false),
      busy: () => this.#park(actor, this.#clock.nowMs(), true),
      until: (condition, deadline) => this.#park(actor, Math.max(this.#clock.nowMs(), deadline), false, condition),
    };
    const first = new Promise<void>((resolve) => (actor.resume = resolve));
    void (async () => {
      await first;
      try {
        await body(self);
      } catch (error) {
        this.errors.push({ actor: name, error });
      } finally {
        actor.done = true;
        this.#wake();
      }
    })();
  }

  /** Run `fire` when the virtual clock reaches `at` (between two turns; a time the clock jumps to, if need be). */
  timer(at: number, fire: () => void): void {
    this.#timers.push({ at, order: ++this.#seq, fire });
    this.#timers.sort((a, b) => a.at - b.at || a.order - b.order);
  }

  /** Move the actors until `stop()` says the run is over (or it is cut); `afterTurn` runs after every move. */
  async run(stop: () => boolean, afterTurn: () => void | Promise<void>): Promise<void> {
    for (;;) {
      this.#fireTimers();
      if (stop()) return;
      const ready = this.#ready();
      if (ready.length === 0) {
        const next = this.#nextTime();
        if (next === null) {
          if (this.#actors.some((a) => !a.done)) this.cut = 'deadlock';
          return;
        }
        this.#clock.advance(next - this.#clock.nowMs());
        continue;
      }
      let pick = ready[0]!;
      if (ready.length > 1) {
        const choice = this.choices.length + 1;
        const wanted = this.#wanted.get(choice);
        const named = wanted === undefined ? undefined : ready.find((a) => a.name === wanted);
        if (named !== undefined) {
          pick = named;
          this.applied.add(choice);
        }
        this.choices.push({ choice, t: this.#clock.nowMs(), at: this.#trace.events.length, ready: ready.map((a) => a.name), ran: pick.name, byDefault: pick === ready[0] });
      }
      if (this.turns >= this.#maxTurns) {
        this.cut = 'turns';
        return;
      }
      this.turns += 1;
      this.#trace.lane = pick.name;
      await this.#resume(pick);
      await afterTurn();
    }
  }

  #ready(): Actor[] {
    const now = this.#clock.nowMs();
    for (const a of this.#actors) {
      if (a.condition === null || a.done || a.resume === null || !a.condition()) continue;
      // Its condition came true: it queues up now, behind those already waiting.
      a.condition = null;
      a.due = now;
      a.order = ++this.#seq;
    }
    return this.#actors
      .filter((a) => !a.done && a.resume !== null && a.due <= now && (a.blockedAt === null || this.turns > a.blockedAt))
      .sort((a, b) => a.due - b.due || a.order - b.order);
  }

  /** The next time anything can happen: an actor's wake-up or a timer; null if nothing ever will. */
  #nextTime(): number | null {
    const now = this.#clock.nowMs();
    const times = [...this.#actors.filter((a) => !a.done && a.resume !== null && a.blockedAt === null && a.due > now).map((a) => a.due), ...this.#timers.map((x) => x.at)];
    return times.length === 0 ? null : Math.max(now, Math.min(...times));
  }

  #fireTimers(): void {
    const now = this.#clock.nowMs();
    while (this.#timers.length > 0 && this.#timers[0]!.at <= now) this.#timers.shift()!.fire();
  }

  #park(actor: Actor, due: number, blocked: boolean, condition: (() => boolean) | null = null): Promise<void> {
    actor.due = due;
    actor.order = ++this.#seq;
    actor.blockedAt = blocked ? this.turns : null;
    actor.condition = condition;
    const resumed = new Promise<void>((resolve) => (actor.resume = resolve));
    this.#wake();
    return resumed;
  }

  #wake(): void {
    const parked = this.#parked;
    this.#parked = null;
    parked?.();
  }

  #resume(actor: Actor): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#parked = resolve;
      const go = actor.resume!;
      actor.resume = null;
      go();
    });
  }
}
