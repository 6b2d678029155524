/**
 * Deliberately broken inventory stores: each breaks one rule of docs/spec.md §3 that the invariants must notice.
 */
import { begin, commit, get, type Sql } from '../core/sql.js';
import { refuse } from '../inventory/refusals.js';
import { InventoryTool, type Receipt, type ReserveRequest, type ToolContext } from '../inventory/InventoryTool.js';
import { SQL } from '../inventory/statements.js';
import type { RetentionRule, RetentionSpec } from '../scenario/types.js';

/**
 * Checks the version before the ledger. A faithful retry whose first attempt already moved the version
 * (a lost reply) is refused as STALE_VERSION although its effect is committed.
 */
export class VersionBeforeLedgerStore extends InventoryTool {
  protected override *reserveInTransaction(args: ReserveRequest, context: ToolContext): Sql<Receipt> {
    const item = yield* get(SQL.item, args.item);
    if (item !== undefined && item.version !== args.expected_version) {
      throw refuse('STALE_VERSION', 'staleVersion', { expected: args.expected_version, found: item.version });
    }
    return yield* super.reserveInTransaction(args, context);
  }
}

/**
 * Commits the stock update first and writes the receipt in a second transaction. A crash between the two
 * leaves an effect without a receipt, and the retry takes a second camera.
 */
export class ReceiptOutsideTransactionStore extends InventoryTool {
  protected override *afterTake(context: ToolContext): Sql<void> {
    yield* commit(); // the effect commits on its own ...
    yield* super.midTransaction(context); // ... a crash here leaves it without a receipt ...
    yield* begin(); // ... and the receipt gets a transaction of its own
  }
}

// ── The limits' stores (docs/spec.md §13–§14): each drops one rule a limit scenario switches on ──

/** Rule 1 dropped: the request's deadline is never read, so a request that comes too late runs all the same. */
export class DeadlineIgnoredStore extends InventoryTool {
  protected override rule(rule: RetentionRule): boolean {
    return rule !== 'deadline' && super.rule(rule);
  }
}

/**
 * Rule 2 dropped: the purge deletes a receipt once `receipts_ms` has passed, shorter than the requests it
 * answers may still arrive — a task delivered again within its deadline meets no receipt.
 */
export class ShortRetentionStore extends InventoryTool {
  protected override keepMs(retention: RetentionSpec): number {
    return retention.receipts_ms;
  }
}

/** Rule 3 dropped: the purge leaves no tombstone, so a late request for a purged key is judged as new. */
export class PurgedKeysForgottenStore extends InventoryTool {
  protected override rule(rule: RetentionRule): boolean {
    return rule !== 'refuse_purged_keys' && super.rule(rule);
  }
}

/** Rule 4 dropped: `close_task` is recorded but never read, so a task delivered again takes effect again. */
export class FinishedTasksIgnoredStore extends InventoryTool {
  protected override rule(rule: RetentionRule): boolean {
    return rule !== 'finished_tasks' && super.rule(rule);
  }
}

/**
 * The outbox row written after the reservation's COMMIT, in a transaction of its own. A crash between the two
 * (`crash_before_commit` strikes there) leaves a reservation whose charge is never sent: half an intent.
 */
export class OutboxOutsideTransactionStore extends InventoryTool {
  #message: { key: string; taskId: string; ref: string; amount: number } | null = null;

  protected override *writeOutbox(key: string, taskId: string, message: { ref: string; amount: number }): Sql<void> {
    this.#message = { key, taskId, ...message }; // not now: after the reservation commits
  }

  override *reserveOps(rawArgs: Record<string, unknown>, context: ToolContext): Sql<Receipt> {
    this.#message = null;
    const { midTransaction, ...rest } = context;
    const receipt = yield* super.reserveOps(rawArgs, rest); // the reservation commits on its own ...
    yield* super.midTransaction(context); // ... a crash here loses the message ...
    const message = this.#message as { key: string; taskId: string; ref: string; amount: number } | null;
    if (message !== null) {
      yield* begin(); // ... which gets a transaction of its own
      yield* super.writeOutbox(message.key, message.taskId, message);
      yield* commit();
    }
    return receipt;
  }
}

/** A compensation not recorded: the release puts the stock back and writes neither a ledger row nor the history. */
export class UnrecordedCompensationStore extends InventoryTool {
  protected override *recordRelease(): Sql<void> {}
}
