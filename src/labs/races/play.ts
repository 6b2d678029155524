/**
 * One interleaving of two sessions' programs, moved by the statement driver (src/postgres/driver.ts): a turn
 * sends a session's next statement and returns when it is done, refused, or waiting on the other session's
 * lock — seen in pg_stat_activity, never a timer. A BEGIN is sent in the same turn as the statement after it
 * (at READ COMMITTED a snapshot is taken per statement, at SERIALIZABLE by the first statement after BEGIN: a
 * BEGIN alone changes nothing another session can see). After every turn, a session waiting on a lock is looked
 * at again: if its blocker's move (a COMMIT, a ROLLBACK) freed it, its statement's end is recorded as it
 * resumes, before the next turn.
 *
 * Determinism: with two sessions at most one waits on any lock (the driver's rule), and nothing else moves
 * between turns, so the same schedule gives the same statements, outcomes and answers, every time. Two sessions
 * that wait on each other would be PostgreSQL's deadlock, decided by its detector after a timeout: none of the
 * programs can wait both ways (each takes at most one lock the other wants), and a play that finds both waiting
 * stops with an error rather than let the server choose.
 */
import type pg from 'pg';
import { StatementDriver, type Outcome, type Session } from '../../postgres/driver.js';
import { SESSIONS, type Answer, type Ended, type Program, type Protocol, type SessionName, type Setup } from './protocols.js';
import type { Final, Tables } from './tables.js';

export type RaceEvent =
  /** A statement sent in a turn, and how it stood when the turn ended. */
  | { type: 'statement'; session: SessionName; sql: string; outcome: Outcome }
  /** A statement that waited, ended after the other session's move. */
  | { type: 'resumed'; session: SessionName; outcome: Ended }
  | { type: 'answer'; session: SessionName; answer: Answer };

export interface Played {
  events: RaceEvent[];
  answers: Record<SessionName, Answer>;
  final: Final;
  /** Each turn: who moved, and who could have. */
  turns: Array<{ chosen: SessionName; runnable: SessionName[] }>;
}

/** A schedule named a session that could not move at that turn (it was waiting, or done). */
export class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
  readonly code = 'RACE_SCHEDULE';
  constructor(
    readonly turn: number,
    readonly session: SessionName,
    readonly why: 'waiting' | 'done',
  ) {
    super(`turn ${turn}: ${session} cannot move (${why})`);
  }
}

/** Both sessions wait on each other: PostgreSQL's detector would choose; the races never go there. */
export class BothWaitError extends Error {
  override readonly name = 'BothWaitError';
  readonly code = 'RACE_BOTH_WAIT';
}

/** The sessions' connections and the driver moving them, kept from one interleaving to the next. */
export class Stage {
  private constructor(
    readonly tables: Tables,
    private readonly driver: StatementDriver,
    private readonly sessions: Record<SessionName, Session>,
    private readonly clients: pg.Client[],
  ) {}

  static async open(tables: Tables): Promise<Stage> {
    const clients: pg.Client[] = [];
    const connect = async () => {
      const client = await tables.connect();
      clients.push(client);
      return client;
    };
    try {
      const driver = new StatementDriver(await connect());
      const sessions = {} as Record<SessionName, Session>;
      for (const name of SESSIONS) sessions[name] = await driver.attach(name, await connect());
      return new Stage(tables, driver, sessions, clients);
    } catch (error) {
      await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
      throw error;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.end().catch(() => undefined)));
  }

  /** Play `schedule` (the session to move at each turn; past its end, the first that can, A before B). */
  async play(protocol: Protocol, setup: Setup, schedule: readonly SessionName[]): Promise<Played> {
    await this.tables.refill(setup);
    const events: RaceEvent[] = [];
    const turns: Played['turns'] = [];
    const state = {} as Record<SessionName, { program: Program; next: string | null; waiting: boolean; answer: Answer | null }>;
    const advance = (name: SessionName, outcome: Ended | undefined): void => {
      const s = state[name];
      const r = outcome === undefined ? s.program.next() : s.program.next(outcome);
      if (r.done) {
        s.answer = r.value;
        s.next = null;
        events.push({ type: 'answer', session: name, answer: r.value });
      } else s.next = r.value;
    };
    for (const name of SESSIONS) {
      state[name] = { program: protocol.program(name), next: null, waiting: false, answer: null };
      advance(name, undefined);
    }
    for (let turn = 0; ; turn++) {
      const runnable = SESSIONS.filter((name) => state[name].answer === null && !state[name].waiting);
      if (runnable.length === 0) {
        if (SESSIONS.some((name) => state[name].waiting)) throw new BothWaitError('both sessions wait');
        break;
      }
      const chosen = schedule[turn] ?? runnable[0]!;
      if (!runnable.includes(chosen)) throw new ScheduleError(turn + 1, chosen, state[chosen].waiting ? 'waiting' : 'done');
      turns.push({ chosen, runnable });
      // The turn: BEGIN and the statement after it, or one statement.
      for (;;) {
        const sql = state[chosen].next!;
        const outcome = await this.driver.step(this.sessions[chosen], sql);
        events.push({ type: 'statement', session: chosen, sql, outcome });
        if (outcome.state === 'waiting') {
          state[chosen].waiting = true;
          break;
        }
        advance(chosen, outcome);
        if (state[chosen].answer !== null || !sql.startsWith('BEGIN')) break;
      }
      for (const name of SESSIONS) {
        if (!state[name].waiting) continue;
        const outcome = await this.driver.settle(this.sessions[name]);
        if (outcome.state === 'waiting') continue;
        state[name].waiting = false;
        events.push({ type: 'resumed', session: name, outcome });
        advance(name, outcome);
      }
    }
    const answers = { A: state.A.answer!, B: state.B.answer! };
    return { events, answers, final: await this.tables.read(), turns };
  }
}
