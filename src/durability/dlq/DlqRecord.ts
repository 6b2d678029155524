/** One operation kept whole in the returns warehouse after its retries ran out (docs/pillars.md §5). */
import type { OperationError } from '../errors.js';

export type DlqStatus = 'pending' | 'replayed' | 'abandoned';

export interface DlqRecord {
  dlqId: string;
  agentId: string;
  operationType: string;
  originalOperation: unknown;
  /** All tries made, the first included. */
  attempts: number;
  /** Tries after the first (attempts − 1): the seed's `retry_count`. */
  retryCount: number;
  lastError: OperationError;
  failedAtMs: number;
  expiresAtMs: number;
  status: DlqStatus;
}
