/**
 * Trace events are data, not strings (DESIGN.md). The harness emits them in order; renderers turn them
 * into text, JSON or HTML, and the grader compares two lists of them to find where two runs part.
 */
import type { CrashPoint } from '../core/crash.js';
import type { Message, Said } from '../core/message.js';
import type { DurabilityEvent } from '../durability/events.js';
import type { FaultSpec } from '../faults/types.js';
import type { PurgedReceipt } from '../inventory/InventoryTool.js';
import type { SnapshotDiff } from '../inventory/snapshot.js';
import type { RunnerState, ToolAction } from '../runner/state.js';

/** Definite: the effect surely did not happen. Indefinite: it may have. The bit that decides if a retry is safe. */
export type Certainty = 'definite' | 'indefinite';

/**
 * Who sent a request: the runner under test, the other client a `concurrent_reserve` fault simulates, or the
 * outbox's relay (docs/spec.md §14.4).
 */
export type Sender = 'runner' | 'other' | 'relay';

export interface ErrorInfo {
  class: 'TransientError' | 'ContractError';
  code?: string;
  message: string;
  certainty: Certainty;
}

export type ReplyOutcome = { ok: true; value: unknown } | { ok: false; error: ErrorInfo };

interface At {
  /** Virtual time (ms since the start of the run). */
  t: number;
  /** Harness step (0 before the first `step` call). */
  step: number;
  /** Many workers: whose lane the event is in (a worker, or the sweeper). Absent with one runner. */
  worker?: string;
}

/** A task's row as the queue's table holds it, as the trace shows it. */
export interface TaskView {
  state: string;
  owner: string | null;
  token: number;
  leaseUntil: number | null;
  /** The token of the grant that finished it (done, failed). */
  finishedToken: number | null;
}

/** One task's row, before and after what the harness saw change (null: the row did not exist). */
export interface TaskChange {
  task: string;
  from: TaskView | null;
  to: TaskView | null;
}

export type TraceEvent = At &
  (
    /** `token`: many workers — the fencing token the line was written under (the store checked it in the same INSERT). */
    | { type: 'saved'; seq: number; label: string; state: RunnerState; token?: number }
    | {
        type: 'request';
        by: Sender;
        action: ToolAction;
        call?: number;
        attempt?: number;
        delivery?: 1 | 2;
        /** The status query the runner's client sends before it resends a keyless request (docs/spec.md §14). */
        check?: true;
      }
    | {
        type: 'db';
        by: Sender;
        tool: string;
        diff: SnapshotDiff;
        /** false: the change was made inside a transaction that has not committed (a crash follows). */
        committed: boolean;
        /** A reserve answered from the ledger: the key, and the stored receipt's id. */
        ledgerHit?: { key: string; receiptId: string };
      }
    | {
        type: 'reply';
        by: Sender;
        tool: string;
        outcome: ReplyOutcome;
        /** false: this reply never reached the sender (the first of a duplicate delivery). */
        delivered: boolean;
        /** For a ContractError: did the refused call change the tool's data (it must not)? */
        changedData?: boolean;
        /** For a ContractError on reserve: was there already a receipt for this very request (same key and fingerprint)? */
        receiptExisted?: boolean;
        /** docs/spec.md §13: did this very request take effect earlier, by the tool's history (its receipt since purged)? */
        effectExisted?: true;
      }
    /** What the fault does is said by the trace's narrator (src/render/narrate.ts), from its kind. */
    | {
        type: 'fault';
        fault: FaultSpec;
        index: number;
        /** For a fault after the tool's answer (crash_after_commit, lost_reply): what the tool had done, in truth. */
        answered?: 'committed' | 'ledger' | 'read';
      }
    | { type: 'crash'; point: CrashPoint; message: Message }
    | { type: 'recovered'; seq: number | null; state: RunnerState | null }
    /** The runner went on after a simulated crash instead of letting it end the step: `how` says what it did. */
    | { type: 'crash_caught'; how: Message }
    /** `message`: the runner's own text, or the harness's message when it made the error (a step that returned no state). */
    | { type: 'runner_error'; message: Said; errorName: string; stack?: string }
    /** A durability pillar at the Runner's seams spoke: a backoff wait, a breaker decision, a DLQ write. */
    | { type: 'pillar'; event: DurabilityEvent }
    /** A dead-letter record is replayed through a fresh runner, with the same key, after a virtual delay. */
    | { type: 'replay'; dlqId: string; afterMs: number; action: ToolAction }
    | { type: 'finished'; status: string; steps: number }
    // ── many workers (docs/spec.md §10–12): each stamped with its lane ──
    /** A worker's process starts: its first life, or again after a crash. */
    | { type: 'started'; life: number }
    /** What a worker's claim got: a grant (the task, its token, its lease's expiry; the worker's n-th grant), or nothing. */
    | { type: 'claim'; granted: { task: string; token: number; leaseUntil: number; reclaim: boolean; grant: number } | null }
    /** A holder's own write to the queue — renew (the heartbeat), complete, fail — accepted, or refused as stale. */
    | { type: 'holder'; op: 'renew' | 'complete' | 'fail'; task: string; token: number; ok: boolean; leaseUntil?: number; result?: string; message?: string }
    /** A line of the task's log refused: the holder's grant was no longer the task's. Nothing was written. */
    | { type: 'save_refused'; label: string; token: number; message: string }
    /** The worker stops working on the task: one of its writes was refused, another holds the task now. */
    | { type: 'lease_lost'; task: string; token: number }
    /** What truly changed in the queue's table since the harness last looked (whatever the store says it did). */
    | { type: 'tasks'; changes: TaskChange[] }
    /** The sweeper returned expired leases to the queue. */
    | { type: 'sweep'; returned: Array<{ task: string; owner: string; token: number; leaseUntil: number }> }
    /** A lease ran out with nobody renewing it; `at` is the expiry itself (the event is stamped when the harness saw it). */
    | { type: 'lease_expired'; task: string; owner: string; token: number; at: number }
    /** A worker stops until `until` (a pause, a stall before a write), then wakes. */
    | { type: 'paused'; until: number; why: 'worker_pause' | 'lease_expires' }
    | { type: 'woke'; pausedAt: number }
    /** From now on the worker renews nothing until `until` (a starved heartbeat). */
    | { type: 'starved'; until: number }
    /** A statement met another connection's write lock (SQLITE_BUSY): the actor waits its turn, and tries again. */
    | { type: 'busy'; op: string }
    /** The tool's purge deleted receipts older than its retention (docs/spec.md §13). */
    | { type: 'purge'; removed: PurgedReceipt[]; keepMs: number; tombstones: boolean; diff: SnapshotDiff }
    /** The queue delivers the whole task again, to a fresh runner from the task's first state (docs/spec.md §13). */
    | { type: 'redelivery'; afterMs: number }
    /** The outbox's relay decided about a message (docs/spec.md §14.4). */
    | { type: 'relay'; id: number; ref: string; what: RelayStep; attempt: number }
  );

/** What the relay does with a message: takes it, finds its charge made, sends it, sees it declined, or gives up. */
export type RelayStep = 'picked' | 'found' | 'sent' | 'declined' | 'gave_up';

export type TraceEventType = TraceEvent['type'];
export type TraceEventOf<K extends TraceEventType> = Extract<TraceEvent, { type: K }>;
