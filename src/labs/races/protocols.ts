/**
 * The races only PostgreSQL shows, as small programs of SQL: each session's program yields one statement at a
 * time and is handed how it ended (src/postgres/driver.ts `Outcome`, never a wait: the harness settles those),
 * and returns the session's answer. The statements are the lesson's, literal values written in, so the trace
 * shows exactly what PostgreSQL ran.
 *
 * Three families, each with its fixes and its broken forms (the mutants the explorer must catch):
 * - reserve: two buyers, one camera each, distinct keys. `read_then_write` (SELECT, then SET available = the
 *   value read − 1) loses an update at READ COMMITTED; `decrement_unchecked` (the check in the application, a
 *   bare `available - 1`) oversells. The fixes: `conditional_update` (the check inside the UPDATE),
 *   `select_for_update` (the read takes the row's lock), `serializable_retry` (SERIALIZABLE, and a 40001 retried
 *   whole with the same key); `serializable_no_retry` leaves a buyer with a 40001 nobody retried.
 * - ledger: one request sent twice (a retry racing its original), the same key on both sessions. The fix claims
 *   the key first with `INSERT … ON CONFLICT DO NOTHING`; `ledger_bare_insert` claims it with a bare INSERT and,
 *   on its 23505, reads the receipt in the same transaction — which PostgreSQL refuses (25P02: aborted).
 * - claim: two workers take a task each from one table. `claim_skip_locked` (`FOR UPDATE SKIP LOCKED`) hands
 *   each its own; `claim_read_then_update` (a plain SELECT, then an UPDATE by id) hands both the same task.
 */
import type { Outcome } from '../../postgres/driver.js';

export type SessionName = 'A' | 'B';
export const SESSIONS: readonly SessionName[] = ['A', 'B'];

/** How a session's request ended, as its caller is told. */
export type Answer =
  | { kind: 'reserved'; reservation: string }
  | { kind: 'out_of_stock' }
  | { kind: 'duplicate'; reservation: string }
  | { kind: 'claimed'; task: number }
  | { kind: 'nothing_ready' }
  /** PostgreSQL refused a statement and the program handed the refusal on: its SQLSTATE. */
  | { kind: 'error'; code: string };

/** What a program is handed back for each statement: a wait has been settled before it resumes. */
export type Ended = Exclude<Outcome, { state: 'waiting' }>;

/** One session's program: statements out, their outcomes in, its answer at the end. */
export type Program = Generator<string, Answer, Ended>;

export type Family = 'reserve' | 'ledger' | 'claim';

/** The starting rows (src/labs/races/tables.ts writes them). */
export interface Setup {
  /** Cameras in stock (reserve and ledger). */
  stock: number;
  /** Tasks ready in the queue (claim). */
  tasks: number;
}

export interface Protocol {
  family: Family;
  /** The isolation level it runs at, as BEGIN says it. */
  isolation: 'READ COMMITTED' | 'SERIALIZABLE';
  /** A broken form: the explorer must find an interleaving that breaks its family's invariant. */
  broken: boolean;
  program(session: SessionName): Program;
}

const ITEM = `'camera'`;
/** The reserve family's keys are the buyers' own; the ledger family's one request carries one key. */
const keyOf = (family: Family, session: SessionName): string => (family === 'ledger' ? 'order-7' : `order-${session}`);
const reservationOf = (session: SessionName): string => `res-${session}`;

const rows = (o: Ended): Array<Record<string, unknown>> => (o.state === 'done' ? o.rows : []);
const changed = (o: Ended): number => (o.state === 'done' ? (o.rowCount ?? 0) : 0);
const failed = (o: Ended): string | null => (o.state === 'failed' ? (o.code ?? 'unknown') : null);

/** The effect: the reservation row, written in the same transaction as the stock it takes. */
const reserve = (session: SessionName, family: Family): string =>
  `INSERT INTO reservations (reservation_id, key, item_id, qty) VALUES ('${reservationOf(session)}', '${keyOf(family, session)}', ${ITEM}, 1)`;

/**
 * BEGIN, the body, COMMIT; a statement PostgreSQL refuses ends the transaction with ROLLBACK and the request
 * with that error. `body` returns the answer to COMMIT with, or one to roll back with (`abandon`).
 */
function* transaction(isolation: Protocol['isolation'], body: () => Generator<string, { commit: Answer } | { abandon: Answer }, Ended>): Generator<string, Answer, Ended> {
  yield `BEGIN ISOLATION LEVEL ${isolation}`;
  const inner = body();
  let next = inner.next();
  while (!next.done) {
    const outcome: Ended = yield next.value;
    const code = failed(outcome);
    if (code !== null) {
      yield 'ROLLBACK';
      return { kind: 'error', code };
    }
    next = inner.next(outcome);
  }
  if ('abandon' in next.value) {
    yield 'ROLLBACK';
    return next.value.abandon;
  }
  const code = failed(yield 'COMMIT');
  return code === null ? next.value.commit : { kind: 'error', code };
}

/** SELECT the stock (with `lock` appended: FOR UPDATE), refuse if short, write `read − 1` back, then the effect. */
function readThenWrite(session: SessionName, isolation: Protocol['isolation'], lock: string): Program {
  return transaction(isolation, function* () {
    const read = Number(rows(yield `SELECT available FROM items WHERE item_id = ${ITEM}${lock}`)[0]?.available ?? 0);
    if (read < 1) return { abandon: { kind: 'out_of_stock' } };
    yield `UPDATE items SET available = ${read - 1} WHERE item_id = ${ITEM}`;
    yield reserve(session, 'reserve');
    return { commit: { kind: 'reserved', reservation: reservationOf(session) } };
  });
}

/** The check inside the write: the row's lock is taken, the row read again after any wait, then tested. */
function conditionalReserve(session: SessionName, family: Family): Generator<string, { commit: Answer } | { abandon: Answer }, Ended> {
  return (function* () {
    const taken = changed(yield `UPDATE items SET available = available - 1 WHERE item_id = ${ITEM} AND available >= 1`);
    if (taken === 0) return { abandon: { kind: 'out_of_stock' } as Answer };
    yield reserve(session, family);
    return { commit: { kind: 'reserved', reservation: reservationOf(session) } as Answer };
  })();
}

/** SERIALIZABLE, and a 40001 (at any statement, COMMIT included) retried whole, with the same key, `attempts` times in all. */
function* serializable(session: SessionName, attempts: number): Program {
  let answer: Answer = { kind: 'error', code: 'none' };
  for (let attempt = 1; attempt <= attempts; attempt++) {
    answer = yield* readThenWrite(session, 'SERIALIZABLE', '');
    if (answer.kind !== 'error' || answer.code !== '40001') return answer;
  }
  return answer;
}

/** Claim the request's key first; a duplicate answers with the original's receipt. `bare`: the broken form. */
function* ledger(session: SessionName, bare: boolean): Program {
  const key = `'${keyOf('ledger', session)}'`;
  const receipt = `SELECT reservation_id FROM ledger WHERE key = ${key}`;
  yield 'BEGIN ISOLATION LEVEL READ COMMITTED';
  const claim: Ended = yield `INSERT INTO ledger (key, reservation_id) VALUES (${key}, '${reservationOf(session)}')${bare ? '' : ' ON CONFLICT (key) DO NOTHING'}`;
  if (bare && failed(claim) === '23505') {
    // The broken form's idea: "the key is taken: read its receipt". In the same transaction, which 23505 aborted.
    const read: Ended = yield receipt;
    const code = failed(read);
    yield 'ROLLBACK';
    return code !== null ? { kind: 'error', code } : { kind: 'duplicate', reservation: String(rows(read)[0]?.reservation_id) };
  }
  if (failed(claim) !== null) {
    yield 'ROLLBACK';
    return { kind: 'error', code: failed(claim)! };
  }
  if (changed(claim) === 0) {
    // Someone holds the key: end this transaction, then read the receipt its commit made visible.
    yield 'ROLLBACK';
    const read: Ended = yield receipt;
    return failed(read) !== null ? { kind: 'error', code: failed(read)! } : { kind: 'duplicate', reservation: String(rows(read)[0]?.reservation_id) };
  }
  const inner = conditionalReserve(session, 'ledger');
  let next = inner.next();
  while (!next.done) next = inner.next(yield next.value);
  if ('abandon' in next.value) {
    yield 'ROLLBACK';
    return next.value.abandon;
  }
  const code = failed(yield 'COMMIT');
  return code === null ? next.value.commit : { kind: 'error', code };
}

/** Find a ready task (`lock` appended to the SELECT), then mark it claimed by this worker (`guard`: the UPDATE's extra condition). */
function claim(session: SessionName, lock: string, guard: string): Program {
  return transaction('READ COMMITTED', function* () {
    const found = rows(yield `SELECT task_id FROM tasks WHERE state = 'ready' ORDER BY task_id LIMIT 1${lock}`)[0];
    if (found === undefined) return { abandon: { kind: 'nothing_ready' } };
    const task = Number(found.task_id);
    const took = changed(yield `UPDATE tasks SET state = 'claimed', claimed_by = '${session}' WHERE task_id = ${task}${guard}`);
    if (took === 0) return { abandon: { kind: 'nothing_ready' } };
    return { commit: { kind: 'claimed', task } };
  });
}

/** Every protocol, by the name a scenario gives in `protocol:`. */
export const PROTOCOLS = {
  read_then_write: { family: 'reserve', isolation: 'READ COMMITTED', broken: true, program: (s) => readThenWrite(s, 'READ COMMITTED', '') },
  decrement_unchecked: {
    family: 'reserve',
    isolation: 'READ COMMITTED',
    broken: true,
    program: (s) =>
      transaction('READ COMMITTED', function* () {
        const read = Number(rows(yield `SELECT available FROM items WHERE item_id = ${ITEM}`)[0]?.available ?? 0);
        if (read < 1) return { abandon: { kind: 'out_of_stock' } };
        yield `UPDATE items SET available = available - 1 WHERE item_id = ${ITEM}`;
        yield reserve(s, 'reserve');
        return { commit: { kind: 'reserved', reservation: reservationOf(s) } };
      }),
  },
  conditional_update: { family: 'reserve', isolation: 'READ COMMITTED', broken: false, program: (s) => transaction('READ COMMITTED', () => conditionalReserve(s, 'reserve')) },
  select_for_update: { family: 'reserve', isolation: 'READ COMMITTED', broken: false, program: (s) => readThenWrite(s, 'READ COMMITTED', ' FOR UPDATE') },
  serializable_retry: { family: 'reserve', isolation: 'SERIALIZABLE', broken: false, program: (s) => serializable(s, 3) },
  serializable_no_retry: { family: 'reserve', isolation: 'SERIALIZABLE', broken: true, program: (s) => serializable(s, 1) },
  ledger_on_conflict: { family: 'ledger', isolation: 'READ COMMITTED', broken: false, program: (s) => ledger(s, false) },
  ledger_bare_insert: { family: 'ledger', isolation: 'READ COMMITTED', broken: true, program: (s) => ledger(s, true) },
  claim_skip_locked: { family: 'claim', isolation: 'READ COMMITTED', broken: false, program: (s) => claim(s, ' FOR UPDATE SKIP LOCKED', '') },
  claim_read_then_update: { family: 'claim', isolation: 'READ COMMITTED', broken: true, program: (s) => claim(s, '', '') },
} satisfies Record<string, Protocol>;

export type ProtocolName = keyof typeof PROTOCOLS;

/**
 * Each fix's broken forms: the code it replaces. A race that runs a fix explores these too, the same way, and
 * shows that the explorer finds the interleavings that break them (the mutants every fix must be seen to catch).
 */
export const BROKEN_FORMS: Readonly<Partial<Record<ProtocolName, readonly ProtocolName[]>>> = {
  conditional_update: ['read_then_write', 'decrement_unchecked'],
  select_for_update: ['read_then_write'],
  serializable_retry: ['read_then_write', 'serializable_no_retry'],
  ledger_on_conflict: ['ledger_bare_insert'],
  claim_skip_locked: ['claim_read_then_update'],
};

export function isProtocolName(name: string): name is ProtocolName {
  return Object.prototype.hasOwnProperty.call(PROTOCOLS, name);
}
