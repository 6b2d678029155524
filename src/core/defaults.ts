/**
 * Every default of the simulator in one place, each with where it comes from.
 */

/** The seed used when none is given; any integer works, this one is only a convention. */
export const DEFAULT_SEED = 42;

/** docs/spec.md §6: `max_calls 8`, `max_retries 2` unless a scenario says otherwise. */
export const DEFAULT_MAX_CALLS = 8;
export const DEFAULT_MAX_RETRIES = 2;

/** docs/spec.md §6: the camera starts with 3 available at version 0. The tripod lets `unauthorized_action` name a real item. */
export const DEFAULT_ITEMS: Readonly<Record<string, { available: number; version: number }>> = {
  camera: { available: 3, version: 0 },
  tripod: { available: 2, version: 0 },
};

/** The small library `search_docs` and `read_doc` serve; ordered by id, as search returns them. */
export const DEFAULT_DOCS: ReadonlyArray<{ doc_id: string; title: string; body: string }> = [
  { doc_id: 'camera-care', title: 'Camera care', body: 'Carry the camera by its strap and return it charged.' },
  { doc_id: 'reservation-rules', title: 'Reservation rules', body: 'Check the stock of a camera before you reserve it.' },
  { doc_id: 'tripod-guide', title: 'Tripod guide', body: 'Fold the legs before you carry a tripod.' },
];

/**
 * docs/spec.md §7 invariant 7: a run must reach a terminal status within a bounded number of steps. The 17
 * scenarios need at most 14 steps; 100 leaves room for any honest runner and still stops a loop quickly.
 */
export const MAX_STEPS = 100;

/** Virtual time a tool request takes on the wire, drawn per request from the seeded rng (ms, inclusive). */
export const TOOL_LATENCY_MS = { min: 5, max: 40 } as const;

/** Virtual time a crashed process takes to come back (ms). */
export const RESTART_MS = 1000;

/** Task id and key prefix of the other client that `concurrent_reserve` simulates (docs/spec.md §5). */
export const OTHER_CLIENT_TASK = 'other';

/** docs/spec.md §14.4: how many times the outbox's relay tries one message before it leaves it to a human. */
export const DEFAULT_RELAY_ATTEMPTS = 3;

/**
 * Many workers (docs/spec.md §10). A lease outlasts a whole task of the chapter — five requests of 5–40 ms and
 * their saves — with room to spare, so only a fault (a pause, a crash, a starved heartbeat) lets one expire.
 */
export const LEASE_MS = 500;
/** How often the sweeper returns expired leases to the queue: half a lease, so a dead holder's task waits at most lease + sweep. */
export const SWEEP_EVERY_MS = 250;
/** How long an idle worker waits before it tries to claim again. */
export const POLL_MS = 100;
/** A holder renews its lease when less than this fraction of it is left (the heartbeat). */
export const RENEW_WHEN_LEFT = 0.5;
/**
 * Invariant 7's bound for many workers: the scheduler's turns (every wire and database boundary of every
 * actor). A chapter's task takes 40 to 110; a livelock stops here instead of running forever.
 */
export const MAX_TURNS = 1_000;
/** Workers in one scenario, at most: enough for every race the lessons show. */
export const MAX_WORKERS = 8;
