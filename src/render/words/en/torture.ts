/** `faultlab torture` (docs/spec.md §19): real worker processes, real SIGKILLs and SIGSTOPs, checks on the file. */
export const torture = {
  // ── help ──
  'help.torture.head':
    'faultlab torture [options]\n' +
    '  Start worker processes on one SQLite file in WAL mode, running the queue’s protocol, and — from a seed —\n' +
    '  SIGKILL them (and restart them) and SIGSTOP/SIGCONT them at real moments. After every kill and at the end,\n' +
    '  check the file: no double effects, no lost intents, ledger rows = effects, no stale write, integrity_check ok.\n' +
    '  With --db postgres (or --db postgres://…) the workers share one schema on a PostgreSQL server instead, each\n' +
    '  connected by URL — as workers on several machines would be — and the same checks read it.',
  'help.torture.workers': 'worker processes (default {workers})',
  'help.torture.kills': 'SIGKILLs to send, each followed by a restart and a check (default {kills})',
  'help.torture.pauses': 'SIGSTOP/SIGCONTs to send (default: half the kills)',
  'help.torture.lease': 'how long a grant holds, in real ms (default {ms})',
  'help.torture.tool': 'how long each tool call takes on the wire, in real ms (default 0):\nslower tasks, more zombies meeting their successors',
  'help.torture.seed': 'the seed the plan is drawn from (default {seed}): the same seed deals the\nsame signals; where they land is real time',
  'help.torture.runner': 'reference (default), or mutant:NAME — a deliberately broken queue, worker,\nrunner or tool, which the checks must catch',
  'help.torture.terminateBackends':
    '\nwith --db postgres…: about half the kills end the worker’s server backend\n(pg_terminate_backend) instead of its process — a connection dying under a\nworker is the same crash',
  'help.torture.join':
    'with --db postgres://…: this run’s workers share the queue of the run whose schema\nis SCHEMA — workers on another machine; that run produces, sweeps and drains it,\nthis one kills its own workers and checks (the run says its schema when it starts)',
  // ── bad options ──
  'cli.torture.joinNeedsUrl': '--join SCHEMA joins a run on a server both can reach: give --db postgres://… with it',
  'cli.torture.badJoin': '--join takes the schema a torture run said when it started (faultlab_run_…), not {given}',
  'cli.torture.noRunToJoin': '--db {given} holds no torture run in schema {schema}: is that run still going? (its schema is dropped when it ends)',
  'cli.torture.terminateNeedsPostgres': '--terminate-backends ends workers’ PostgreSQL backends: give --db postgres (or --db postgres://…) with it',
  'cli.torture.badNumber': '{option} must be a whole number from {min} to {max}, got {given}',
  'cli.torture.badRunner': 'torture runs faultlab’s own workers as processes: --runner reference or mutant:NAME, not {given}',
  // ── while it runs ──
  'torture.progress': 'torture: {kills}/{plannedKills} kills · {pauses}/{plannedPauses} pauses · {finished} tasks finished · {stale} stale writes refused · {seconds} s',
  'torture.head': 'faultlab torture — {workers} worker processes on one SQLite file (WAL), seed {seed}, lease {lease} ms, tool calls {tool} ms, runner {runner}',
  'torture.headPostgres': 'faultlab torture — {workers} worker processes on one PostgreSQL schema (--db {db}), seed {seed}, lease {lease} ms, tool calls {tool} ms, runner {runner}',
  'torture.joinable': 'torture: workers on another machine join this run’s queue, until it ends, with: {command}',
  'torture.joined': 'joined the run in schema {schema}: its workers and these share one queue; that run produces, sweeps and drains it',
  'torture.joinedEnded': 'The run joined ended (its schema dropped) before this one: the last check was not made here, the figures are that run’s to give.',
  'torture.plan':
    'plan {digest}: {kills} SIGKILLs and {pauses} SIGSTOP/SIGCONTs drawn from the seed — the same seed deals the same plan;\n' +
    'where each signal lands is real time, and differs from run to run',
  // ── the table ──
  'torture.row.kills': 'kills',
  'torture.note.kills': 'each followed by a restart and a check of the file ({checks} checks, the last at the end)',
  'torture.note.killsPostgres': 'each followed by a restart and a check of the schema ({checks} checks, the last at the end)',
  'torture.row.pauses': 'pauses',
  'torture.note.pauses': 'SIGSTOP, then SIGCONT ½ to 4 leases later',
  'torture.row.tasks': 'tasks',
  'torture.note.tasks': 'done {done} · failed {failed} · not finished {left}',
  'torture.row.effects': 'effects',
  'torture.note.effects': 'ledger rows {receipts}',
  'torture.row.terminated': 'backends terminated',
  'torture.note.terminated': 'of the kills: the worker’s server connection ended (pg_terminate_backend), the worker died of it',
  'torture.row.grants': 'grants',
  'torture.note.grants': 'claims granted, each under a new fencing token',
  'torture.row.stale': 'stale writes refused',
  'torture.note.counted': 'STALE_FENCE, counted by the workers: a SIGKILL loses what its worker had not yet reported',
  'torture.row.busy': 'BUSY retries',
  'torture.note.busy': 'statements that met another process’s write lock, waited and ran again',
  'torture.row.throughput': 'throughput (tasks/s)',
  'torture.note.throughput': '{finished} tasks finished in {seconds} s',
  'torture.checks': 'Checks on the file (after every kill, and at the end)',
  'torture.checksPostgres': 'Checks on the schema (after every kill, and at the end)',
  'torture.found': '{n} found',
  'torture.checkBroken': '{title}: {found} — {first}',
  'torture.notDrained': 'Once the signals stopped, the workers did not finish every task in time.',
  'torture.stoppedAt': 'A check broke after kill {kill}: the run stopped there.',
  'torture.workerError': 'Worker {worker} ended on its own ({exit}): {said}',
  'torture.held': 'Held: every check passed.',
  'torture.broken': 'Broken: a check failed.',
  'torture.powerLoss':
    'This proves that the protocol survives process crashes (SIGKILL, SIGSTOP) while the machine runs on — not power\n' +
    'loss: SQLite’s documentation warns that a power cut can lose or corrupt what the disk had not made durable, and\n' +
    'these files run with synchronous=OFF.',
  'torture.powerLossPostgres':
    'This proves that the protocol survives its workers’ crashes (SIGKILL, SIGSTOP, a connection ended) while the\n' +
    'server runs on — not the server’s own crash or power loss: the embedded server runs with fsync=off. There is no\n' +
    'integrity_check here: it is SQLite’s, of a file its clients write; PostgreSQL’s pages are the server’s to keep.',
  // ── the checks (src/torture/fileChecks.ts) ──
  'torture.check.integrity.title': 'PRAGMA integrity_check answers ok',
  'torture.check.integrity.broken': '{file}: {detail}',
  'torture.check.double_effects.title': 'no double effects: every intent took effect at most once',
  'torture.check.double_effects.found':
    '{task} took effect {effects} times and holds {receipts} receipts: one intent, one effect — a retry must carry the same key, and a receipt must commit with its effect',
  'torture.check.ledger_is_effects.title': 'ledger rows = effects',
  'torture.check.ledger_is_effects.found':
    '{item}: its version moved {effects} times and {available} of {start} are left, but the ledger holds {receipts} receipts taking {taken} — an effect and its receipt commit together, or neither does',
  'torture.check.lost_intents.title': 'no lost intents: every task done or failed',
  'torture.check.lost_intents.unfinished':
    '{task} is still {state} once the signals have stopped: nobody finished it — a dead holder’s task must come back (its lease expires, the sweep returns it) and be done or failed',
  'torture.check.lost_intents.noReceipt': '{task} is done, and the ledger holds no receipt for it: its success was recorded without its effect',
  'torture.check.lost_intents.missing': 'the producer queued {enqueued} tasks; the files hold {found}',
  'torture.check.lost_intents.logDisagrees':
    '{task} was finished as {status}, but the last line of its log says {logged}: the log must hold the state a task finished in — a holder recovering from it would run the task again',
  'torture.check.lost_intents.failedWithEffect':
    '{task} failed as {status} — a refusal, which changes nothing — yet its item moved {effects} times: an intent that took effect is reported failed, and would be made again',
  'torture.check.fence.title': 'the fence held: no stale write went in',
  'torture.check.fence.finishedStale':
    '{task} was finished under token {finished} while its last grant is token {token}: a stale holder finished a task another held — every write must be guarded by the task, the owner and the token',
  'torture.check.fence.logBackwards':
    'line {seq} of {task}’s log was written under token {token}, after a line under token {before}: a zombie wrote after its successor — the store must refuse a write whose token has gone backwards',
  'torture.check.fence.sharedToken':
    '{task}’s log has lines under token {token} from {owners}: one token was granted twice — a claim must read and write in one transaction that holds the write lock (BEGIN IMMEDIATE), and add one to the token',
  'torture.check.fence.reopened':
    '{task} is {state} again after it was finished under token {finished}: a finished task never changes — every write, the sweep’s included, must require the task still running',
  'torture.worker.stepBound': '{worker} stepped {task} {steps} times without reaching an end: its runner loops',
} as const;
