/**
 * The queue class the harness is given for a learner's worker (the second exercise, src/runner/BaseWorker.ts):
 * each instance stands for one worker class built in the box. Claim, finish and sweep run there; every
 * statement they send comes back here and runs on the worker's own connection — after a turn, so another
 * worker may move between any two statements — and nothing else of the protocol is theirs: the reservation,
 * the log and the heartbeat are the harness's statements under the learner's fence.
 *
 * The verdict never rests on what the learner's code returns. A claim's grant (owner, token, lease) is read
 * back from the table; the checks read the table as committed (src/sim/workers/crew.ts). And the learner's SQL
 * may write the table `tasks` and nothing else: SQLite's own plan of each statement (EXPLAIN) names every
 * table it opens for writing, so a statement that would touch the ledger, the stock, the log, the tokens or
 * the schema is refused before it runs.
 */
import type Database from 'better-sqlite3';
import { isBusy } from '../core/busy.js';
import { message, MessageError, type Message, type Params } from '../core/message.js';
import { QueueStore, CLAUSES, type QueuePoint, type Clauses, type Fence, type Grant, type QueueClass, type QueueDeps, type Swept, type Turns } from '../queue/QueueStore.js';
import type { Box, Loss, WorkerCalls } from './Box.js';
import type { BoxCode } from './codes.js';

const say = (code: BoxCode, params?: Params): Message<BoxCode> => message(code, params);

/** What the learner's worker did that the harness cannot take: that run fails with it, as the worker's error. */
export class WorkerContractError extends MessageError {
  override readonly name = 'WorkerContractError';
}

/** The longest statement a worker may send (a statement, not a program). */
const MAX_SQL_CHARS = 4000;

/** Transaction control, the only thing `exec` takes. */
const CONTROL = /^\s*(BEGIN(\s+(DEFERRED|IMMEDIATE|EXCLUSIVE))?(\s+TRANSACTION)?|COMMIT(\s+TRANSACTION)?|END(\s+TRANSACTION)?|ROLLBACK(\s+TRANSACTION)?)\s*;?\s*$/i;
/** A statement that takes the write lock at once: when another connection holds it, waiting is safe. */
const TAKES_LOCK = /^\s*BEGIN\s+(IMMEDIATE|EXCLUSIVE)\b/i;
/** Statements no worker needs, whose effect EXPLAIN does not show as a table written. */
const NEVER = /^\s*(ATTACH|DETACH|PRAGMA|VACUUM|REINDEX|ANALYZE)\b/i;
/** Opcodes of a plan that change the schema or the file itself. */
const SCHEMA_OPS = new Set(['CreateBtree', 'Destroy', 'ParseSchema', 'SetCookie', 'JournalMode', 'Vacuum', 'IncrVacuum', 'VUpdate', 'DropTable', 'DropIndex', 'DropTrigger', 'SqlExec', 'LoadAnalysis']);

/**
 * A worker's statements, carried out on its connection: a turn before each, SQLITE_BUSY waited out where
 * waiting is safe, and every statement's plan checked for what it writes.
 */
export class WorkerStatements {
  readonly #db: Database.Database;
  readonly #turns: Turns;
  readonly #prepared = new Map<string, Database.Statement>();
  #allowed: Set<number> | null = null;
  /** Where the next statement stands: the first of a method (its caller took a turn already), after a read, after anything else. */
  #after: 'start' | 'read' | 'other' = 'start';
  /** The learner's method under way: its statements' points are named as the reference queue's are. */
  #method: 'claim' | 'finish' | 'sweep' = 'claim';

  /** A method of the learner's begins: its first statement follows the turn its caller took. */
  begin(method: 'claim' | 'finish' | 'sweep'): void {
    this.#after = 'start';
    this.#method = method;
  }

  /** The point a statement stands at, named as in the reference queue (claim:read, sweep:commit, write…). */
  #point(sql: string, read: boolean): QueuePoint {
    if (this.#method === 'finish') return 'write';
    const step = /^\s*(COMMIT|END)\b/i.test(sql) ? 'commit' : read || /^\s*BEGIN\b/i.test(sql) ? 'read' : 'write';
    return `${this.#method}:${step}`;
  }

  constructor(db: Database.Database, turns: Turns) {
    this.#db = db;
    this.#turns = turns;
  }

  async get(sql: unknown, params?: unknown): Promise<unknown> {
    return this.#run(sql, params, (s, p) => s.get(...p));
  }

  async all(sql: unknown, params?: unknown): Promise<unknown> {
    return this.#run(sql, params, (s, p) => s.all(...p));
  }

  async run(sql: unknown, params?: unknown): Promise<unknown> {
    return this.#run(sql, params, (s, p) => ({ changes: s.run(...p).changes }));
  }

  async exec(sql: unknown): Promise<unknown> {
    if (typeof sql !== 'string' || !CONTROL.test(sql)) throw new WorkerContractError(say('box.worker.execOnly', { sql: String(sql).slice(0, 120) }));
    return this.#run(sql, undefined, (s) => void s.run());
  }

  async #run<T>(sql: unknown, params: unknown, go: (statement: Database.Statement, params: unknown[]) => T): Promise<T> {
    if (typeof sql !== 'string' || sql.length > MAX_SQL_CHARS) throw new WorkerContractError(say('box.worker.sqlText', { max: MAX_SQL_CHARS }));
    const bound = params === undefined ? [] : [params];
    const statement = this.#statement(sql, bound);
    // Another worker may move before each statement — but for the first of a method (its caller took a turn
    // already) and a read right after a read (what one transaction reads together): the turns of the
    // reference's queue (src/queue/QueueStore.ts), so a scenario's schedule means the same moment in both.
    const read = statement.readonly && !CONTROL.test(sql);
    const turn = this.#after === 'other' || (this.#after === 'read' && !read);
    this.#after = read ? 'read' : 'other';
    const point = this.#point(sql, read);
    if (turn) await this.#turns.at(point);
    for (;;) {
      try {
        return go(statement, bound);
      } catch (error) {
        // Waiting is safe for a statement that takes the lock before it reads anything; a read transaction
        // that would become a write one cannot wait (what it read may be out of date): its BUSY is its own.
        if (!isBusy(error) || (this.#db.inTransaction && !TAKES_LOCK.test(sql))) throw error;
        await this.#turns.busy(point);
      }
    }
  }

  /** The statement prepared — once its plan shows it writes nothing but `tasks`. */
  #statement(sql: string, bound: unknown[]): Database.Statement {
    const known = this.#prepared.get(sql);
    if (known !== undefined) return known;
    if (NEVER.test(sql)) throw new WorkerContractError(say('box.worker.writesOutsideTasks', { sql: sql.trim().slice(0, 120), what: sql.trim().split(/\s+/)[0]!.toUpperCase() }));
    const statement = this.#db.prepare(sql); // SQLite's own error for a statement that does not parse (or two at once)
    if (!CONTROL.test(sql)) {
      const written = this.#writes(sql, bound);
      if (written.length > 0) throw new WorkerContractError(say('box.worker.writesOutsideTasks', { sql: sql.trim().slice(0, 120), what: written.join(', ') }));
    }
    this.#prepared.set(sql, statement);
    return statement;
  }

  /** What the statement's plan writes beside `tasks` and its indexes: tables by name, or the schema. */
  #writes(sql: string, bound: unknown[]): string[] {
    const pages = new Map((this.#db.prepare('SELECT rootpage, tbl_name FROM sqlite_schema WHERE rootpage > 0').all() as Array<{ rootpage: number; tbl_name: string }>).map((r) => [r.rootpage, r.tbl_name]));
    this.#allowed ??= new Set([...pages].filter(([, table]) => table === 'tasks').map(([page]) => page));
    const plan = this.#db.prepare(`EXPLAIN ${sql}`).all(...bound) as Array<{ opcode: string; p1: number; p2: number; p3: number }>;
    const out = new Set<string>();
    for (const op of plan) {
      if (SCHEMA_OPS.has(op.opcode)) out.add('the schema');
      else if (op.opcode === 'OpenWrite' && (op.p3 !== 0 || !this.#allowed.has(op.p2))) out.add(pages.get(op.p2) ?? 'the schema');
      else if (op.opcode === 'Clear' && (op.p2 !== 0 || !this.#allowed.has(op.p1))) out.add(pages.get(op.p1) ?? 'the schema');
    }
    return [...out];
  }
}

/** Why a claim's answer is no claim: null, or an object with the task's id. */
function claimedTask(value: unknown): string | null | undefined {
  if (value === null) return null;
  if (typeof value === 'object' && typeof (value as { task?: unknown }).task === 'string') return (value as { task: string }).task;
  return undefined;
}

const shown = (value: unknown) => (value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value)).slice(0, 80));

/**
 * The boxes of a learner's worker: one per actor (each worker, the sweeper), since a box runs one call at a time
 * and a claim waits in its box for its turn while another worker moves. Kept from run to run; a box that was
 * lost is replaced when its actor next needs one.
 */
export class WorkerBoxes {
  readonly #boxes = new Map<string, Box>();
  readonly #open: () => Promise<Box>;
  #spare: Box | null;
  #inRun = false;
  /** Which run is under way: a box asked for by a run that is over is never used by the next. */
  #generation = 0;

  /** `first`: the box the file was loaded in (to know it loads); `open`: a new one. */
  constructor(first: Box, open: () => Promise<Box>) {
    this.#spare = first;
    this.#open = open;
  }

  get generation(): number {
    return this.#generation;
  }

  /** The box of `actor` in the run `generation`; rejects when that run is over before a box could be had. */
  async boxFor(actor: string, generation: number): Promise<Box> {
    let box = this.#boxes.get(actor);
    if (box !== undefined && !box.gone) return box;
    if (box !== undefined) await box.dispose();
    if (this.#spare !== null && !this.#spare.gone) {
      box = this.#spare;
      this.#spare = null;
    } else {
      box = await this.#open();
      // Opening takes real time: the run that asked may have ended meanwhile (a box must never serve two runs' instances).
      const other = this.#boxes.get(actor);
      if (generation !== this.#generation || (other !== undefined && !other.gone)) {
        if (this.#spare === null) this.#spare = box;
        else await box.dispose();
        if (generation !== this.#generation) throw new Error(`faultlab: the run that asked for ${actor}'s box is over`);
        return other!;
      }
    }
    this.#boxes.set(actor, box);
    if (this.#inRun) box.beginRun();
    return box;
  }

  /** A new run: every box forgets its instances and gets its time limit afresh. */
  async beginRun(): Promise<void> {
    this.#generation += 1;
    this.#inRun = true;
    for (const [actor, box] of this.#boxes) {
      if (!box.gone && !box.midCall) box.beginRun();
      else {
        await box.dispose();
        this.#boxes.delete(actor);
      }
    }
  }

  /** The run is over: what each box's code printed, and the first box lost in it. */
  async endRun(): Promise<{ boxes: Box[]; loss: Loss | null }> {
    this.#inRun = false;
    let loss: Loss | null = null;
    const boxes = [...this.#boxes.values()];
    for (const box of boxes) {
      box.endRun();
      loss ??= await box.lost();
    }
    // A run can end with an actor parked inside one of the learner's methods (the step bound, another's error): its box
    // waits for an answer that never comes, and cannot serve the next run. It goes; the next run opens another.
    for (const [actor, box] of this.#boxes) {
      if (!box.midCall) continue;
      this.#boxes.delete(actor);
      await box.dispose();
    }
    return { boxes, loss };
  }

  async close(): Promise<void> {
    await Promise.all([...this.#boxes.values(), ...(this.#spare ? [this.#spare] : [])].map((box) => box.dispose()));
  }
}

/**
 * The queue class for a learner's worker, each instance in its actor's box. `name`: its class's name; `fence`:
 * the SQL condition its class says every holder's write commits under.
 */
export function boxedQueueClass(boxes: WorkerBoxes, name: string, fence: string): QueueClass {
  const Boxed = class extends QueueStore {
    #box: Box | null = null;
    readonly #built: Promise<number>;
    readonly #statements: WorkerStatements;

    constructor(deps: QueueDeps) {
      super(deps);
      this.#statements = new WorkerStatements(this.db, this.turns); // SQLite's: the learner's SQL is SQLite's
      const calls: WorkerCalls = { db: this.#statements, clock: { nowMs: () => deps.clock.nowMs() } };
      const generation = boxes.generation;
      this.#built = boxes.boxFor(deps.actor ?? 'worker', generation).then((box) => {
        if (boxes.generation !== generation) throw new Error('faultlab: this run is over');
        this.#box = box;
        return box.build(calls, deps.leaseMs);
      });
      this.#built.catch(() => {}); // awaited by each method; a box lost before then is the run's to report
    }

    // The harness's own guarded writes (the reservation, the log, the heartbeat) commit under the learner's fence.
    protected override clauses(): Clauses {
      return { ...CLAUSES, fence, finish: fence };
    }

    override async claim(owner: string): Promise<Grant | null> {
      const held = this.rows().find((row) => row.state === 'running' && row.owner === owner)?.task_id ?? null;
      const answer = await this.#call('claim', [owner]);
      const task = claimedTask(answer);
      if (task === undefined) throw new WorkerContractError(say('box.worker.claimReturned', { value: shown(answer) }));
      if (task === null) return null;
      // The grant as the table has it (the worker's connection: what its claim committed, nothing of another's since).
      const row = this.row(task);
      if (row === null || row.state !== 'running' || row.owner !== owner || row.lease_until_ms === null) {
        throw new WorkerContractError(say('box.worker.claimNotGranted', { task, owner, row: row === null ? 'no such task' : `${row.state}, owner ${String(row.owner)}, token ${row.token}` }));
      }
      return { task, owner, token: row.token, leaseUntilMs: row.lease_until_ms, reclaim: held === task };
    }

    protected override async finish(fence: Fence, state: 'done' | 'failed', result: string): Promise<void> {
      const answer = await this.#call('finish', [fence, state, result]);
      if (typeof answer !== 'boolean') throw new WorkerContractError(say('box.worker.finishReturned', { value: shown(answer) }));
      if (!answer) throw await this.stale(fence, state === 'done' ? 'complete' : 'fail');
    }

    override async sweep(): Promise<Swept[]> {
      // The leases as they stand before the sweep (its first statement follows with no turn between): their expiry, for the trace.
      const before = new Map(this.rows().map((row) => [`${row.task_id}#${row.token}`, row.lease_until_ms ?? 0]));
      const answer = await this.#call('sweep', []);
      if (!Array.isArray(answer) || !answer.every((r) => typeof r === 'object' && r !== null && typeof r.task === 'string' && typeof r.owner === 'string' && Number.isSafeInteger(r.token))) {
        throw new WorkerContractError(say('box.worker.sweepReturned', { value: shown(answer) }));
      }
      return (answer as Array<{ task: string; owner: string; token: number }>).map((r) => ({ task: r.task, owner: r.owner, token: r.token, leaseUntilMs: before.get(`${r.task}#${r.token}`) ?? 0 }));
    }

    /** One of the learner's methods, in its box; a transaction it left open is rolled back and its failure. */
    async #call(method: 'claim' | 'finish' | 'sweep', args: unknown[]): Promise<unknown> {
      let answer: unknown;
      try {
        const instance = await this.#built;
        this.#statements.begin(method);
        answer = await this.#box!.invoke(instance, method, args);
      } catch (error) {
        await this.rollback();
        throw error;
      }
      if (this.db.open && this.db.inTransaction) {
        await this.rollback();
        throw new WorkerContractError(say('box.worker.openTransaction', { method }));
      }
      return answer;
    }
  };
  Object.defineProperty(Boxed, 'name', { value: name });
  Object.defineProperty(Boxed, LEARNER_WORKER, { value: true });
  return Boxed;
}

/** The mark of a learner's worker class: it has a queue to run on only where several workers share one. */
const LEARNER_WORKER = Symbol.for('faultlab.learnerWorker');

export function isLearnerWorker(queue: unknown): boolean {
  return typeof queue === 'function' && (queue as unknown as Record<symbol, unknown>)[LEARNER_WORKER] === true;
}
