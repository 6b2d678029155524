/**
 * What the torture's driver and its worker processes say to each other over the IPC channel Node opens between
 * them (docs/spec.md §19): the driver hands each worker its configuration on its command line (so that its path to
 * the database shows in `ps`, and in /proc for the start-up sweep, src/core/tempDir.ts); the worker says when it
 * is ready, what it has counted, and why it broke off, if it does.
 */
import type { Message } from '../../core/message.js';
import type { LifeCounts } from '../../torture/ProcessLife.js';

/** On PostgreSQL, the server's URL reaches a worker in its environment, not on its command line (`ps` shows that). */
export const TORTURE_URL_VARIABLE = 'FAULTLAB_TORTURE_URL';

/** A worker whose server connection died under it (its backend terminated) ends with this code: the same crash as a SIGKILL. */
export const CONNECTION_LOST_EXIT = 75;

/** A worker of a joining run (`--join`) whose schema is gone — the run it joined has ended and dropped it — ends with this code. */
export const RUN_ENDED_EXIT = 76;

/** PostgreSQL's codes for a schema, or a table in it, that is not there: the run joined has dropped its schema. */
export const SCHEMA_GONE = new Set(['3F000', '42P01']);

export interface WorkerConfig {
  /** The live database file; on PostgreSQL the run's folder (so that the start-up sweep knows its workers). */
  db: string;
  /** On PostgreSQL: the run's schema, on the server named by TORTURE_URL_VARIABLE. */
  schema?: string;
  /** The worker's name (`w1`…), the same in every life. */
  name: string;
  /** Which life this is (1 for the first start): the tool's seeded stream differs per life. */
  life: number;
  seed: number;
  leaseMs: number;
  /** How long each tool call takes on the wire, in real ms. */
  toolMs: number;
  /** `reference`, or `mutant:NAME`. */
  runner: string;
}

export type WorkerReport =
  /** `backend`: on PostgreSQL, the pid of the worker's server backend (what `--terminate-backends` ends). */
  | { type: 'ready'; backend?: number }
  | { type: 'counts'; counts: LifeCounts }
  /** `said`: the error's message — faultlab's as a Message, worded by the driver's renderer. */
  | { type: 'error'; name: string; said: string | Message };
