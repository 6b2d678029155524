/**
 * The remote payment service of docs/spec.md §14: a stub of the kind of service the chapter warns about, one
 * with no idempotency key. It executes every `charge` it receives — the same reference twice is two charges —
 * and offers only `charge_status`, a query by the reference the caller chose. What it really did is its own
 * table, `charges`, written in a transaction of its own: it never shares one with the inventory (it is reached
 * only over the wire, as a service on another machine would be, though its table sits in the tool's file).
 *
 * A charge above what is left of the account's balance is declined: a definite business answer (nothing
 * charged), returned as a result, not a refusal — the caller decides what to do with it (compensate, §14.5).
 */
import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import { abandon, all, begin, commit, get, hook, run, statement, atOnce, type Sql, type SqlConnection } from '../core/sql.js';
import type { Rng } from '../core/rng.js';
import { refuse } from './refusals.js';
import { connectionOf, type ToolContext, type ToolRequest } from './InventoryTool.js';

/** The service's two operations; every other request is not its. */
export const REMOTE_TOOLS: ReadonlySet<string> = new Set(['charge', 'charge_status']);

/** Tools whose requests carry no idempotency key: a transport must never repeat one on its own (§14). */
export const KEYLESS_TOOLS: ReadonlySet<string> = new Set(['charge']);

export type ChargeResult =
  | { status: 'charged'; charge_id: string; ref: string; amount: number }
  | { status: 'declined'; ref: string; amount: number; reason: string };

export interface ChargeStatus {
  ref: string;
  /** How many charges the service made under this reference (more than one: it was charged twice). */
  charges: number;
  found: boolean;
  /** The first of them. */
  charge_id?: string;
  amount?: number;
}

export interface PaymentDeps {
  db: Database.Database | SqlConnection;
  rng: Rng;
  clock: Clock;
  /** The account's balance before any charge. */
  balance: number;
}

const CHARGE_ID_HEX = 6;

/** Its statements, per dialect (src/inventory/statements.ts says why they differ). */
const SQL = {
  spent: statement<[], { spent: number }>('payment.spent', { same: 'SELECT COALESCE(SUM(amount), 0) AS spent FROM charges' }),
  charge: statement<[string, string, number, number]>('payment.charge', {
    sqlite: 'INSERT INTO charges(charge_id, ref, amount, at_ms) VALUES (?, ?, ?, ?)',
    postgres: 'INSERT INTO charges(seq, charge_id, ref, amount, at_ms) VALUES ((SELECT coalesce(max(seq), 0) + 1 FROM charges), $1, $2, $3, $4)',
  }),
  byRef: statement<[string], { charge_id: string; amount: number }>('payment.byRef', {
    sqlite: 'SELECT charge_id, amount FROM charges WHERE ref = ? ORDER BY seq',
    postgres: 'SELECT charge_id, amount FROM charges WHERE ref = $1 ORDER BY seq',
  }),
};

export class PaymentService {
  /** The connection its transactions run on (the tool's: the service's table sits in the tool's database). */
  readonly connection: SqlConnection;
  readonly #rng: Rng;
  readonly #clock: Clock;
  readonly #balance: number;

  constructor(deps: PaymentDeps) {
    this.connection = connectionOf(deps.db);
    this.#rng = deps.rng;
    this.#clock = deps.clock;
    this.#balance = deps.balance;
  }

  /** One request, at once (SQLite). */
  call(request: ToolRequest, context: ToolContext): unknown {
    return atOnce(this.connection).run(this.ops(request, context));
  }

  /** One request, as the statements it runs. */
  *ops(request: ToolRequest, context: ToolContext): Sql<unknown> {
    const args = request.args ?? {};
    const ref = args.ref;
    if (typeof ref !== 'string' || ref === '') throw refuse('INVALID_ACTION', 'needsRefShort', { tool: request.name });
    if (request.name === 'charge_status') return yield* this.statusOps(ref);
    if (request.name !== 'charge') throw refuse('INVALID_ACTION', 'unknownTool', { tool: String(JSON.stringify(request.name)) });
    const amount = args.amount;
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1) throw refuse('INVALID_ACTION', 'positiveAmount', { got: String(JSON.stringify(amount)) });
    return yield* this.chargeOps(ref, amount, context);
  }

  /** A charge, at once (SQLite). */
  charge(ref: string, amount: number, context: ToolContext): ChargeResult {
    return atOnce(this.connection).run(this.chargeOps(ref, amount, context));
  }

  /** One charge, whatever came before under the same reference: the service keeps no key. */
  *chargeOps(ref: string, amount: number, context: ToolContext): Sql<ChargeResult> {
    yield* begin();
    try {
      const spent = (yield* get(SQL.spent))?.spent ?? 0;
      if (amount > this.#balance - spent) {
        yield* commit();
        return { status: 'declined', ref, amount, reason: `insufficient funds: ${this.#balance - spent} left` };
      }
      const chargeId = `ch_${this.#rng.hex(CHARGE_ID_HEX)}`;
      yield* run(SQL.charge, chargeId, ref, amount, this.#clock.nowMs());
      if (context.midTransaction) yield* hook(context.midTransaction);
      yield* commit(); // the remote effect: a charge, and nothing to recognise it by but the reference
      return { status: 'charged', charge_id: chargeId, ref, amount };
    } catch (error) {
      yield* abandon();
      throw error;
    }
  }

  /** The status, at once (SQLite). */
  status(ref: string): ChargeStatus {
    return atOnce(this.connection).run(this.statusOps(ref));
  }

  /** What the service made under a reference: the only question it answers. */
  *statusOps(ref: string): Sql<ChargeStatus> {
    const rows = yield* all(SQL.byRef, ref);
    const first = rows[0];
    return { ref, charges: rows.length, found: first !== undefined, ...(first ? { charge_id: first.charge_id, amount: first.amount } : {}) };
  }
}
