/**
 * The command line's own words: the usage, refusals of options, paths and runner files, what a run, a
 * list and the dead-letter queue print around the traces, and how the process says it stopped.
 * The prefix `faultlab COMMAND: ` and option names stay in the code; only the sentences are here.
 */
export const cli = {
  'cli.lang.bad': '--lang must be one of {langs}, got {given}',
  /** Joins the last two items of a short list: `lost_reply and crash_after_commit`. */
  'cli.and': ' and ',
  /** Joins the items of a list: `a.json, b.xml`. */
  'cli.listSep': ', ',

  // ── main.ts: the usage, the process ──────────────────────────────────────────────────────────────
  'cli.usage.title': 'faultlab — a deterministic simulator for the failures that make retries dangerous',
  'cli.usage.exitCodes':
    'Exit codes: 0 every check held · 1 a check failed · 2 bad input (unreadable or invalid scenario, bad option,\n' +
    'unusable path or runner file) · 70 a bug in faultlab (FAULTLAB_DEBUG=1 shows where) · 130/143 stopped by SIGINT/SIGTERM.',
  'cli.usage.language': 'Language: --lang zh|en on any command (default: the locale — LC_ALL, LC_MESSAGES, LANG; zh* is Chinese).',
  'cli.usage.lessons': 'Lessons: lessons/ · the exercise: src/runner/LearnerRunner.ts',
  'cli.unknownCommand': 'unknown command {name}',
  'cli.stopped': 'stopped by {signal}; temporary files removed',

  // ── errors.ts: how each failure is reported ──────────────────────────────────────────────────────
  'cli.error.cannotUse': 'cannot use {path}: {code}',
  'cli.error.internal': 'internal error: {what}\n  this is a bug in faultlab, not in your input — {next}',
  'cli.error.stackFollows': 'the stack follows',
  'cli.error.runAgain': 'run again with {variable}=1 to see where it happened',
  'cli.error.cannotWrite': 'cannot write to {stream}: {errno}',
  'cli.error.cannotWriteFull': 'cannot write to {stream}: {errno} (no space left on the device)',
  // Node's parseArgs, word for word in English (its message is shown as it is when it is none of these).
  'cli.args.unknownOption': "Unknown option '{option}'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"{option}\"",
  'cli.args.missingValue': "Option '{option} <value>' argument missing",
  'cli.args.takesNoValue': "Option '{option}' does not take an argument",

  // ── options.ts ────────────────────────────────────────────────────────────────────────────────────
  'cli.seed.bad': '--seed must be an integer, got {given}',
  'cli.storage.bad': '--storage must be memory or file, got {given}',
  'cli.width.bad': '--width must be an integer from {min} to {max}, got {given}',
  'cli.db.bad': '--db must be sqlite, postgres or a URL postgres://USER@HOST:PORT/DATABASE, got {given}',
  'cli.db.badUrl': '--db {given} is not a URL faultlab can connect with: {problem}',
  'cli.db.unparsable': 'it does not parse as a URL',
  'cli.db.noHost': 'it names no server (give a host, or the folder of a unix socket as ?host=/path)',
  'cli.db.sqliteOnly': '--db {given} runs each scenario in a schema of its own on PostgreSQL: {option} is for SQLite only',
  'cli.db.scenarioNotYet': '--db {given}: {id} runs on SQLite only for now ({why}); run it without --db',
  'cli.db.why.workers': 'a grade on the many-worker scenarios runs on SQLite (a learner\'s worker writes SQLite\'s SQL)',
  'cli.db.why.sqliteLesson': 'it teaches SQLite\'s own locking — BEGIN IMMEDIATE against a deferred transaction that upgrades later — which PostgreSQL does not have',
  'cli.db.why.sqliteMutant': 'it breaks SQLite\'s own locking — a deferred transaction\'s upgrade — which PostgreSQL does not have',
  'cli.db.why.learnerWorker': 'a learner\'s worker writes SQLite\'s SQL',
  'cli.db.sqliteForGood': '--db {given}: {id} runs on SQLite only ({why}); run it without --db',
  'cli.db.skipped': '--db {given}: {id} skipped: it runs on SQLite only ({why})',
  'cli.db.why.lab': 'a lab runs its own SQLite files',
  'cli.db.dlqKeptFiles': '--db {given}: faultlab dlq reads the databases a run kept with --keep-db, and those are SQLite files (a run on PostgreSQL keeps nothing: its schema is dropped when it ends); run it without --db',
  'cli.db.mutantsQueue': '--db {given}: explore --mutants with no scenario named hunts every mutant, deferred_upgrade among them, which breaks SQLite\'s own locking (PostgreSQL has none like it); name the scenarios to hunt on PostgreSQL (e.g. faultlab explore --mutants scenarios/*.yaml --db {given}), or run it without --db',
  'cli.db.cannotConnect': '--db {given}: cannot connect: {problem}',

  // ── run ───────────────────────────────────────────────────────────────────────────────────────────
  'cli.run.runnerFailed': 'the runner failed outside step(): {failure}',
  'cli.run.constructorThrew': 'its constructor threw {what}',
  'cli.run.labTitle': 'a durability pillar lab (its text trace)',
  'cli.run.who.runner': '{label} runner',
  'cli.run.who.labs': 'labs: no runner',
  'cli.run.who.mixed': '{label} runner; labs: no runner',
  'cli.run.footer': '(seed {seed}, {who}{kept})',
  'cli.run.kept': ' · databases kept in {dir}: {files}',
  'cli.run.keptNothing': ' · no database was written to {dir}',
  'cli.run.more': 'more: the other {hidden} traces with {all} · one with {one} · each run as a page with {html}',
  'cli.run.next': 'next: lessons/01-intents-attempts-effects.md · {pillars} (the pillars in the Runner) · {grade} (the exercise)',
  'cli.run.pagesTitle': 'faultlab run — {count} run(s)',
  'cli.run.pagesSubtitle': 'seed {seed} · {who}',
  'cli.run.keepDbOne': '--keep-db needs exactly one scenario (got {count})',
  'cli.run.keepDbKind': '--keep-db: {id} is a {kind} scenario, which has no run databases to keep (--keep-db is for runner scenarios)',
  'cli.pages': '  pages: {index}',

  // ── explore ───────────────────────────────────────────────────────────────────────────────────────
  'cli.explore.depthBad': '--depth must be 1 or 2, got {given}',
  'cli.explore.workersBad': '--workers must be an integer from 1 to {max}, got {given}',
  'cli.explore.preemptionsBad': '--preemptions must be an integer from 0 to {max}, got {given}',
  'cli.explore.noRunnerScenario': 'no runner scenario among the targets',
  'cli.explore.mutantsNoRunner': '--mutants explores the mutants; it takes no --runner',
  'cli.explore.barMutants': 'mutants',
  'cli.explore.barDepth': 'depth {depth}',
  'cli.explore.whoMutant': 'mutant {name}',
  'cli.explore.pagesSubtitle': '{count} violation(s), each as its minimal run',

  // ── grade ─────────────────────────────────────────────────────────────────────────────────────────
  'cli.grade.isolation': 'the submissions run without {missing}: a submission could reach more than its own run here (run the grader as root on Linux to close this)',
  'cli.grade.isolation.other_user': 'a user of their own (faultlab is not root)',
  'cli.grade.isolation.pid_namespace': 'a process namespace of their own (unshare is missing or not allowed)',
  'cli.grade.isolation.own_root': 'a root of their own, where they see only their own files (faultlab is not root, or mount namespaces are not allowed)',
  'cli.grade.isolation.limits': 'limits on memory, processes and files (prlimit is missing)',
  'cli.grade.intBad': '{option} must be an integer from 1 to {max}, got {given}',
  'cli.grade.noScenarios': 'no runner scenarios in {targets}',
  'cli.grade.wroteExercism': '{file} (Exercism results.json v3)',
  'cli.grade.wroteJUnit': '{file} (JUnit XML)',
  'cli.grade.wrotePages': '{index} (the reference beside each run)',
  'cli.grade.wrote': 'wrote {files}',
  'cli.grade.couldNotWrite': 'could not write {files}',
  'cli.grade.pagesSubtitle': 'seed {seed}',
  'cli.grade.notReplayed': 'not replayed: {why}',
  'cli.grade.noRun': 'no run',
  'cli.grade.out.onto.input': '{option} {value}: that is a submission or a scenario being graded — an output never goes onto what is graded',
  'cli.grade.out.onto.scenarios': '{option} {value}: that is a folder of scenarios — what is written there would be read as scenarios',
  'cli.grade.out.onto.own': "{option} {value}: that is inside faultlab's own files (src, dist, scenarios, node_modules) — they stay as they are",
  'cli.grade.out.same': '{option} and {other} both name {value}: each output needs a file of its own',
  'cli.grade.sameId': '{option}: {id} ({file}) has the id of a scenario already graded ({other}): each test needs an id of its own',
  'cli.grade.out.isFolder': '{option} {value}: is a folder, not a file',
  'cli.grade.out.noFolder': '{option} {value}: no folder {folder} to write it in',
  'cli.grade.out.folderReadOnly': '{option} {value}: the folder {folder} cannot be written to',
  'cli.grade.out.cannotWrite': '{option} {value}: cannot write there ({why})',
  'cli.grade.out.notWritable': '{path} is not writable',
  'cli.grade.out.isFile': '{path} is a file',

  // ── list ──────────────────────────────────────────────────────────────────────────────────────────
  'cli.list.head.id': 'id',
  'cli.list.head.title': 'title',
  'cli.list.head.faults': 'faults',
  'cli.list.head.status': 'expected status',

  // ── dlq ───────────────────────────────────────────────────────────────────────────────────────────
  'cli.dlq.oneFolder': 'give exactly one folder: the DIR of a `faultlab run SCENARIO --keep-db DIR`',
  'cli.dlq.none': 'no dead letters in {dir} (a run keeps one only with a durability.dlq block, when it ends exhausted with an action pending)',
  'cli.dlq.noKey': '(no key)',
  'cli.dlq.head.id': 'id',
  'cli.dlq.head.status': 'status',
  'cli.dlq.head.scenario': 'scenario',
  'cli.dlq.head.intent': 'intent',
  'cli.dlq.head.attempts': 'attempts',
  'cli.dlq.head.lastError': 'last error',
  'cli.dlq.replayOne': 'replay one: {command}',
  'cli.dlq.noSuchLetter': '--replay {id}: no such dead letter in {dir} (kept: {kept})',
  'cli.dlq.keptNone': 'none',
  'cli.dlq.busy': '--replay {id}: {dir} {why}',
  'cli.dlq.notPending': '--replay {id}: the record is {status}; only a pending record may be replayed',

  // ── labs among the targets (labRun.ts) ────────────────────────────────────────────────────────────
  'cli.labs.andMore': '{shown} and {more} more',
  'cli.labs.refuseOne':
    '{options} cannot be used with a lab: {labs} is a lab (kind: lab), which drives the durability pillars directly, with no Runner and no inventory database to choose or keep. Run labs without --runner, --storage and --keep-db.',
  'cli.labs.refuseMany':
    '{options} cannot be used with a lab: {labs} are labs (kind: lab), which drive the durability pillars directly, with no Runner and no inventory database to choose or keep. Run labs without --runner, --storage and --keep-db.',
  'cli.labs.notForOne': '{command} runs a Runner through runner scenarios; {labs} is a lab (kind: lab), with no Runner to {command}. Run labs with faultlab run.',
  'cli.labs.notForMany': '{command} runs a Runner through runner scenarios; {labs} are labs (kind: lab), with no Runner to {command}. Run labs with faultlab run.',

  // ── --keep-db (keepDb.ts) and --out (outDir.ts) ───────────────────────────────────────────────────
  'cli.keepDb.needsFolder': '--keep-db needs a folder',
  'cli.keepDb.refused': '--keep-db {given}: {why}',
  'cli.keepDb.isFile': 'is a file, not a folder (give a new or empty folder)',
  'cli.keepDb.parentNotFolder': '{parent} is not a folder',
  'cli.keepDb.noParent': 'its parent folder {parent} does not exist (make it first)',
  'cli.keepDb.cannotUse': 'cannot use it: {code}',
  'cli.keepDb.cannotMake': 'cannot make the folder: {code}',
  'cli.keepDb.cannotRead': 'cannot read it: {code}',
  'cli.keepDb.othersFiles': 'holds other files ({files}); give a new or empty folder, or one that only holds {tool} and {events}',
  'cli.keepDb.inUse': 'is in use by another faultlab run; wait for it to end, or give another folder',
  'cli.keepDb.cannotLock': 'cannot lock it: {code}',
  'cli.outDir.needsFolder': '{option} needs a folder',
  'cli.outDir.isFile': '{option} {given} is a file, not a folder',
  'cli.outDir.onPathIsFile': '{option} {given}: {at} is a file, not a folder',
  'cli.outDir.cannotWrite': '{option} {given}: cannot write in {at}: {code}',
  'cli.outDir.noFolder': '{option} {given}: no folder on its path exists',
  'cli.outDir.cannotMake': '{option} {dir}: cannot make {level}: {code}',

  // ── --runner FILE (runnerOption.ts, contain.ts) ───────────────────────────────────────────────────
  'cli.runner.needsValue': '--runner needs a value: reference, learner, mutant:NAME or the path of a .ts/.js file',
  'cli.runner.isFolder': '--runner {name} is a folder: give the .ts or .js file that exports the runner class',
  'cli.runner.notRegular': '--runner {name} is not a regular file: give the .ts or .js file that exports the runner class',
  'cli.runner.badExtension': '--runner {name}: a runner file is TypeScript or JavaScript ({extensions}), not {ext}',
  'cli.runner.noExtension': 'a file without an extension',
  'cli.runner.hungAtLoad': '--runner {name}: loading the file did not finish in time (does it run an endless loop when it is imported?)',
  'cli.runner.exitedAtLoad': '--runner {name}: the file called process.exit() while it was loaded; a runner file only defines its class',
  'cli.runner.syntaxAt': '--runner {name}: syntax error at {where}: {message}',
  'cli.runner.syntax': '--runner {name}: syntax error: {message}',
  'cli.runner.threwAtLoad': '--runner {name}: the file threw {kind} while it was loaded: {message}',
  'cli.runner.aValue': 'a value',
  'cli.runner.calledExit': 'the runner called process.exit({code}): a runner returns the state from step(); it never ends the process',
} as const;
