/** Many workers (docs/spec.md §10–12): the queue's words in the trace, the worker faults, the new invariants. */
export const workers = {
  // ── where a worker fault strikes ──
  'workers.point.anyWorker': 'any worker',
  'workers.point.claimReply': 'on the reply to its claim',
  'workers.point.claimed': 'right after its grant',
  'workers.point.finish': 'before it finishes the task',
  'workers.point.saved': 'after {event}',
  'workers.point.anEvent': 'a saved event',
  'workers.point.request': 'before {request}',
  'workers.point.aRequest': 'a request',
  'workers.point.ofGrant': '(grant {n})',
  'trace.faultNote.worker_pause': 'the worker stops (a GC pause, a SIGSTOP): it will go on from here as if no time had passed',
  'trace.faultNote.worker_crash': "the worker's process dies: its connection closes, what it had not committed is rolled back",
  'trace.faultNote.lease_expires': 'the worker stalls here, between what it read and what it writes, until its lease has expired and the task gone to another',
  'trace.faultNote.heartbeat_starved': 'the worker goes on working, but its heartbeat gets no turn: nothing renews its lease',
  'trace.faultNote.claim_reply_lost': 'the claim committed its grant; the reply is lost on the way back',
  'workers.fault.forMs': '{kind} {ms} ms at {point}',
} as const;
