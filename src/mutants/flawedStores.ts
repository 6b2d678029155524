/**
 * Deliberately broken inventory stores: each breaks one rule of docs/spec.md §3 that the invariants must notice.
 */
import { ContractError } from '../inventory/errors.js';
import { InventoryTool, type Receipt, type ReserveRequest, type ToolContext } from '../inventory/InventoryTool.js';

/**
 * Checks the version before the ledger. A faithful retry whose first attempt already moved the version
 * (a lost reply) is refused as STALE_VERSION although its effect is committed.
 */
export class VersionBeforeLedgerStore extends InventoryTool {
  protected override reserveInTransaction(args: ReserveRequest, context: ToolContext): Receipt {
    const item = this.sql.item.get(args.item);
    if (item !== undefined && item.version !== args.expected_version) {
      throw new ContractError('STALE_VERSION', `expected version ${args.expected_version}, found ${item.version}`);
    }
    return super.reserveInTransaction(args, context);
  }
}

/**
 * Commits the stock update first and writes the receipt in a second transaction. A crash between the two
 * leaves an effect without a receipt, and the retry takes a second camera.
 */
export class ReceiptOutsideTransactionStore extends InventoryTool {
  override reserve(rawArgs: Record<string, unknown>, context: ToolContext): Receipt {
    return super.reserve(rawArgs, {
      ...context,
      midTransaction: () => {
        this.sql.commit.run(); // the effect commits on its own ...
        context.midTransaction?.(); // ... a crash here leaves it without a receipt ...
        this.sql.begin.run(); // ... and the receipt gets a transaction of its own
      },
    });
  }
}
