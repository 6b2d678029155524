import { makeTempDir, removeTempDir } from '../../core/tempDir.js';
import { join } from 'node:path';
import { StoreBusyError } from '../../durability/errors.js';
import { IdempotencyStore, type CheckResult } from '../../durability/idempotency/IdempotencyStore.js';
import { idempotencyKey, shortKey } from '../../core/key.js';
import { openDatabase, type Db } from '../../core/storage.js';
import type { LabContext } from '../LabContext.js';
import type { Experiment } from './types.js';
import { msg } from '../../render/words/index.js';
import type { Message } from '../../core/message.js';

/**
 * Two connections, a and b, to one SQLite file, each wanting to claim the same key: read it, and if
 * nobody has it, write a record. Each does two steps (read, write), so two callers can interleave in six
 * orders ("a b a b": a reads, b reads, a writes, b writes). The lab plays every order twice, on a fresh
 * key each time:
 * - naive: `check()` then `record()`, two transactions. Every order where both read before either wrote
 *   tells both New: both would apply the effect.
 * - cas: `checkAndRecord()`, the read and the write in one IMMEDIATE transaction. Where the second's read
 *   falls inside the first's transaction, it is refused the write lock (SQLITE_BUSY, nothing written) and
 *   tries again after the commit, to be told Duplicate.
 * Nothing is drawn from the seed: every order is played. The figures count what the stores answered, so
 * a store whose compare-and-set let a second reader in would show a second New in the cas figures.
 */

interface Setup {
  operation: { agent_id: string; operation_type: string; content: Record<string, unknown> };
}

type Conn = 'a' | 'b';

/** Every interleaving of a's two steps with b's: the first letter of each connection is its read. */
export const ORDERS: readonly (readonly Conn[])[] = [
  ['a', 'a', 'b', 'b'],
  ['a', 'b', 'a', 'b'],
  ['a', 'b', 'b', 'a'],
  ['b', 'a', 'a', 'b'],
  ['b', 'a', 'b', 'a'],
  ['b', 'b', 'a', 'a'],
];

/** Virtual ms between two plays, so each has its own time in the trace. */
const GAP_MS = 10;

const other = (x: Conn): Conn => (x === 'a' ? 'b' : 'a');
const answerOf = (r: CheckResult): string => (r.kind === 'new' ? 'New' : 'Duplicate');

export const raceExperiment: Experiment = {
  meanings: () => ({
    orders: msg('lab.race.meaning.orders'),
    naive_new_per_order: msg('lab.race.meaning.naive_new_per_order'),
    naive_both_new: msg('lab.race.meaning.naive_both_new'),
    cas_new_per_order: msg('lab.race.meaning.cas_new_per_order'),
    cas_duplicates_per_order: msg('lab.race.meaning.cas_duplicates_per_order'),
    cas_both_new: msg('lab.race.meaning.cas_both_new'),
    cas_busy_refusals: msg('lab.race.meaning.cas_busy_refusals'),
  }),

  run(ctx: LabContext): Record<string, unknown> {
    const { agent_id: agent, operation_type: type, content } = (ctx.scenario as unknown as Setup).operation;
    const dir = makeTempDir('race');
    const dbs: Db[] = [];
    try {
      const open = (): IdempotencyStore => {
        // The one crash model's shared mode: WAL, normal locking, no waiting for the lock.
        const db = openDatabase(join(dir, 'idempotency.db'), { busyTimeoutMs: 0, shared: true });
        dbs.push(db);
        return new IdempotencyStore({ db, clock: ctx.clock, config: ctx.config.idempotency, events: ctx.sink });
      };
      const stores: Record<Conn, IdempotencyStore> = { a: open(), b: open() };
      const naiveNew: number[] = [];
      const casNew: number[] = [];
      const casDuplicates: number[] = [];
      let busy = 0;

      ORDERS.forEach((order, n) => {
        const name = order.join(' ');
        if (n > 0) ctx.clock.advance(GAP_MS);
        const tell = (protocol: 'naive' | 'cas', connection: Conn, answer: string, text: Message): void =>
          ctx.emit({ type: 'race.try', protocol, order: name, connection, answer, text });

        // naive: each step of the order is its own transaction
        const naiveKey = idempotencyKey(agent, type, { ...content, order: name, protocol: 'naive' });
        ctx.step(msg('lab.race.naiveOrder', { order: name, key: shortKey(naiveKey) }));
        const told: Partial<Record<Conn, CheckResult>> = {};
        for (const x of order) {
          const answer = told[x];
          if (answer === undefined) {
            const r = stores[x].check(naiveKey);
            told[x] = r;
            tell('naive', x, answerOf(r), msg(r.kind === 'new' ? 'lab.race.checksFree' : 'lab.race.checksTaken', { who: x }));
          } else if (answer.kind === 'new') {
            tell('naive', x, 'record', msg('lab.race.records', { who: x }));
            stores[x].record(naiveKey, { applied_by: x });
          }
        }
        naiveNew.push(Object.values(told).filter((r) => r.kind === 'new').length);

        // cas: the read and the write are one transaction; the order says whether the second reader
        // arrives while the first holds the write lock (its read comes before the first's write)
        const casKey = idempotencyKey(agent, type, { ...content, order: name, protocol: 'cas' });
        ctx.step(msg('lab.race.casOrder', { order: name, key: shortKey(casKey) }));
        const first = order[0] as Conn;
        const second = other(first);
        const inside = order[1] === second;
        const answers: CheckResult[] = [];
        let refused = false;
        const firstAnswer = stores[first].checkAndRecord(casKey, { claimed_by: first }, {
          whileLocked: () => {
            if (!inside) return;
            try {
              answers.push(stores[second].checkAndRecord(casKey, { claimed_by: second }));
            } catch (error) {
              if (!(error instanceof StoreBusyError)) throw error;
              refused = true;
              busy += 1;
              tell('cas', second, 'busy', msg('lab.race.busy', { who: second, holder: first }));
            }
          },
        });
        answers.push(firstAnswer);
        tell('cas', first, answerOf(firstAnswer), msg('lab.race.committed', { who: first }));
        if (!inside || refused) {
          const r = stores[second].checkAndRecord(casKey, { claimed_by: second });
          answers.push(r);
          tell('cas', second, answerOf(r), msg(refused ? 'lab.race.triesAgain' : 'lab.race.arrivesAfter', { who: second }));
        }
        casNew.push(answers.filter((r) => r.kind === 'new').length);
        casDuplicates.push(answers.filter((r) => r.kind === 'duplicate').length);
      });

      return {
        orders: ORDERS.map((o) => o.join(' ')),
        naive_new_per_order: naiveNew,
        naive_both_new: naiveNew.filter((k) => k === 2).length,
        cas_new_per_order: casNew,
        cas_duplicates_per_order: casDuplicates,
        cas_both_new: casNew.filter((k) => k === 2).length,
        cas_busy_refusals: busy,
      };
    } finally {
      for (const db of dbs) db.close();
      removeTempDir(dir);
    }
  },
};
