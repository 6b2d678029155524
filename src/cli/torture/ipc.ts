/**
 * What the torture's driver and its worker processes say to each other over the IPC channel Node opens between
 * them (docs/spec.md §19): the driver hands each worker its configuration on its command line (so that its path to
 * the database shows in `ps`, and in /proc for the start-up sweep, src/core/tempDir.ts); the worker says when it
 * is ready, what it has counted, and why it broke off, if it does.
 */
import type { Message } from '../../core/message.js';
import type { LifeCounts } from '../../torture/ProcessLife.js';

export interface WorkerConfig {
  /** The live database file. */
  db: string;
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
  | { type: 'ready' }
  | { type: 'counts'; counts: LifeCounts }
  /** `said`: the error's message — faultlab's as a Message, worded by the driver's renderer. */
  | { type: 'error'; name: string; said: string | Message };
