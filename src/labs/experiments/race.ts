import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreBusyError } from '../../durability/errors.js';
import { IdempotencyStore, type CheckResult } from '../../durability/idempotency/IdempotencyStore.js';
import { idempotencyKey } from '../../core/key.js';
import { openDatabase, type Db } from '../../core/storage.js';
import type { RunContext } from '../context.js';
import type { Experiment } from './types.js';

/**
 * Two connections (a and b) to one SQLite file race for the same key, round after round, at the worst
 * moment: the second arrives while the first holds the write lock between its read and its write. The
 * seed decides who arrives first. Then, once, the naive protocol — check, then write, as two steps — to
 * show what the single compare-and-set prevents.
 */

interface Setup {
  operation: { agent_id: string; operation_type: string; content: Record<string, unknown> };
  rounds: number;
}

/** Virtual ms between rounds, so each round has its own time in the trace. */
const ROUND_GAP_MS = 10;

export const raceExperiment: Experiment = {
  meanings: {
    rounds: 'rounds raced, one fresh key each',
    new_per_round: 'how many of the two connections were told New, per round',
    duplicates_per_round: 'how many were told Duplicate, per round',
    busy_refusals: 'times the second connection was refused the write lock (SQLITE_BUSY; nothing written)',
    first_to_lock: 'which connection took the write lock first, per round (the seed decides)',
    exactly_one_new_every_round: 'every round had exactly one New',
    naive_check_then_set_new: 'how many of the two were told New when check and write are two separate steps',
  },

  run(ctx: RunContext): Record<string, unknown> {
    const setup = ctx.scenario as unknown as Setup;
    const dir = mkdtempSync(join(tmpdir(), 'faultlab-race-'));
    const dbs: Db[] = [];
    try {
      const open = (): IdempotencyStore => {
        const db = openDatabase(join(dir, 'idempotency.db'), { busyTimeoutMs: 0, shared: true });
        dbs.push(db);
        return new IdempotencyStore({ db, clock: ctx.clock, config: ctx.config.idempotency, events: ctx.sink });
      };
      const stores = { a: open(), b: open() };
      const { agent_id: agent, operation_type: type, content } = setup.operation;
      const newPerRound: number[] = [];
      const duplicatesPerRound: number[] = [];
      const firstToLock: string[] = [];
      let busy = 0;

      for (let round = 1; round <= setup.rounds; round += 1) {
        if (round > 1) ctx.clock.advance(ROUND_GAP_MS);
        const key = idempotencyKey(agent, type, { ...content, round });
        const [first, second] = ctx.rng.next() < 0.5 ? (['a', 'b'] as const) : (['b', 'a'] as const);
        firstToLock.push(first);
        ctx.step(`round ${round}: connections a and b both want ${key}; ${first} takes the write lock first`);
        const answers: CheckResult[] = [];
        answers.push(
          stores[first].checkAndRecord(key, { claimed_by: first }, {
            whileLocked: () => {
              try {
                answers.push(stores[second].checkAndRecord(key, { claimed_by: second }));
              } catch (error) {
                if (!(error instanceof StoreBusyError)) throw error;
                busy += 1;
                ctx.emit({ type: 'race.try', round, connection: second, answer: 'busy', text: `${second} tries while ${first} holds the lock: SQLITE_BUSY, nothing written — it will try again` });
              }
            },
          }),
        );
        ctx.emit({ type: 'race.try', round, connection: first, answer: answers.at(-1)?.kind ?? '?', text: `${first} read, wrote its placeholder and committed` });
        answers.push(stores[second].checkAndRecord(key, { claimed_by: second }));
        ctx.emit({ type: 'race.try', round, connection: second, answer: answers.at(-1)?.kind ?? '?', text: `${second} tries again after the commit` });
        newPerRound.push(answers.filter((x) => x.kind === 'new').length);
        duplicatesPerRound.push(answers.filter((x) => x.kind === 'duplicate').length);
      }

      ctx.clock.advance(ROUND_GAP_MS);
      const naiveKey = idempotencyKey(agent, type, { ...content, round: 'naive' });
      ctx.step(`the naive protocol on ${naiveKey}: each connection checks, then writes, in two steps`);
      const naive = [stores.a.check(naiveKey), stores.b.check(naiveKey)];
      ctx.emit({ type: 'race.try', round: 0, connection: 'a', answer: naive[0]?.kind ?? '?', text: 'a checks: nobody has the key' });
      ctx.emit({ type: 'race.try', round: 0, connection: 'b', answer: naive[1]?.kind ?? '?', text: 'b checks before a writes: nobody has the key either' });
      stores.a.record(naiveKey, { applied_by: 'a' });
      stores.b.record(naiveKey, { applied_by: 'b' });
      ctx.note('both believed they were first: both would apply the effect (and b’s record overwrote a’s)');

      return {
        rounds: setup.rounds,
        new_per_round: newPerRound,
        duplicates_per_round: duplicatesPerRound,
        busy_refusals: busy,
        first_to_lock: firstToLock,
        exactly_one_new_every_round: newPerRound.every((n) => n === 1),
        naive_check_then_set_new: naive.filter((x) => x.kind === 'new').length,
      };
    } finally {
      for (const db of dbs) db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
