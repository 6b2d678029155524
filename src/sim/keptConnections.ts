/**
 * A pair of connections kept between the runs of one thread: how exploration avoids opening two databases
 * for every schedule (with their schema to load and every statement to prepare again: ~0.3 ms of a ~0.5 ms
 * schedule). Before each run the pair is restored to exactly the committed rows the run starts from — the
 * scenario's starting database, or a checkpoint's content — by deleting every row and inserting those, in
 * one transaction per database; afterwards the tables hold what a connection opened on an image of them
 * would hold, and every query the harness, the tool and the event store make names its order.
 *
 * Within a run nothing changes: a crash closes both connections (src/core/storage.ts) and the run goes on
 * with new ones on the committed images, which the pair then becomes. Only for code that keeps nothing of a
 * run once it is over — the reference runner on the real tool (src/explore/fork.ts decides); statements
 * prepared on a connection are kept for its life, one cache per connection.
 */
import Database from 'better-sqlite3';
import type { Db, LentConnections } from '../core/storage.js';
import { commonPrefix, startingToolRows, writeToolRows, type ToolRows } from '../inventory/rows.js';
import { TOOL_SCHEMA } from '../inventory/schema.js';
import { EVENT_SCHEMA, writeEventRows, type EventRow } from '../runner/EventStore.js';
import type { Inventory } from '../scenario/types.js';
import { InventoryTool } from '../inventory/InventoryTool.js';
import { ReferenceRunner } from '../runner/ReferenceRunner.js';
import { isInABox } from '../box/boxedRunner.js';

/**
 * Whether a runner and a tool keep nothing of a run once it is over, so that the next run may use the
 * connections they used: the reference runner, or a runner in a box (it never touches a database), on the real
 * tool. A mutant or a broken store might hold on to a statement or a connection, so each of their runs opens its own.
 */
export function mayKeepConnections(runner: unknown, tool: unknown): boolean {
  return (runner === ReferenceRunner || isInABox(runner)) && (tool === undefined || tool === InventoryTool);
}

/** The committed content of a run's two databases. */
export interface Content {
  readonly tool: ToolRows;
  readonly events: readonly EventRow[];
}

export function startingContent(inventory: Inventory): Content {
  return { tool: startingToolRows(inventory), events: [] };
}

/**
 * The pair, and the content it was last restored to: a run on it since then has only appended events and
 * receipts and updated stock (the reference runner on the real tool), so restoring the next run's content
 * keeps the rows both hold and rewrites the rest.
 */
interface Pair {
  tool: Db;
  events: Db;
  held: Content | null;
}

export class KeptConnections {
  #pair: Pair | null = null;

  /** The kept pair (or a new one), holding exactly `content`, lent to one run. */
  lend(content: Content): LentConnections {
    const pair = this.#pair ?? { tool: withSchema(TOOL_SCHEMA), events: withSchema(EVENT_SCHEMA), held: null };
    this.#pair = null;
    try {
      writeToolRows(pair.tool, content.tool, pair.held?.tool ?? null);
      writeEventRows(pair.events, content.events, pair.held === null ? 0 : commonPrefix(pair.held.events, content.events));
    } catch (error) {
      pair.tool.close();
      pair.events.close();
      throw error;
    }
    return {
      tool: pair.tool,
      events: pair.events,
      giveBack: (tool, events) => {
        if (this.#pair === null) this.#pair = { tool, events, held: content };
        else [tool, events].forEach((db) => db.close());
      },
    };
  }

  close(): void {
    this.#pair?.tool.close();
    this.#pair?.events.close();
    this.#pair = null;
  }
}

function withSchema(schema: string): Db {
  const db = new Database(':memory:');
  db.exec(schema);
  return db;
}
