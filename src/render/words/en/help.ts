/**
 * Each command's help: its head (the usage line and what it does, indented as printed) and one text per
 * option. The option's name (`--seed N`) stays in the code, which lays each option out in its column
 * (src/cli/options.ts: optionHelp); a `\n` in an option's text starts a line under the text column.
 */
export const help = {
  // ── options more than one command takes ───────────────────────────────────────────────────────────
  'help.option.seed': 'seed of the virtual clock and rng (default {seed}); same seed, same trace',
  'help.option.runner':
    'reference (default), learner (src/runner/LearnerRunner.ts), mutant:NAME (a deliberately\nbroken runner or store, src/mutants/catalogue.ts), or a .ts/.js file exporting a runner class',
  'help.option.storage': '{storage} (default: in-memory SQLite, the same crash model) or file (a temporary folder)',
  'help.option.json': 'one JSON document on stdout, nothing else',
  'help.option.noColor': 'plain text (also NO_COLOR=1, and whenever stdout is not a terminal)',
  'help.option.width': "wrap the trace to N columns (default: the terminal's; {width} when not a terminal)",
  'help.option.html': 'also write each run as a self-contained HTML page in DIR, with an index',
  'help.option.lang': 'the language of the messages: zh (Chinese) or en (English); default: the locale, zh* is Chinese',
  'help.option.db': 'sqlite (default), postgres (an embedded server that faultlab starts and removes)\nor a URL postgres://USER@HOST:PORT/DATABASE (a server of yours)',

  // ── run ───────────────────────────────────────────────────────────────────────────────────────────
  'help.run.head':
    'faultlab run [SCENARIO…] [options]\n' +
    '  Run scenarios (files, folders or ids) and show each trace. With none named: the 17 in scenarios/,\n' +
    '  the traces of {shown} and the summary of all.',
  'help.run.all': 'show every trace (with no scenario named: all 17)',
  'help.run.quiet': 'the summary only',
  'help.run.keepDb':
    "keep the run's SQLite databases in DIR to inspect them (one runner scenario; one run\nat a time per DIR; with --storage memory their images are written there at the end)",

  // ── list ──────────────────────────────────────────────────────────────────────────────────────────
  'help.list.head': 'faultlab list [SCENARIO…] [--json] [--no-color]\n  One line per scenario: id, title, faults, expected status.',

  // ── grade ─────────────────────────────────────────────────────────────────────────────────────────
  'help.grade.head':
    'faultlab grade [FILE_OR_DIR…] [options]\n' +
    '  Grade runner files (default: src/runner/LearnerRunner.ts) on every scenario as written, then on every scenario\n' +
    '  with one added fault at every point (as faultlab explore does, depth 1): per scenario ✔/✘, what broke and why,\n' +
    "  where the run left the reference's path, the command to replay it and the lesson to read; then the fault\n" +
    '  coverage, the score (one test per scenario as written, one per scenario explored) and a hint. A folder holds\n' +
    '  one submission per sub-folder with a LearnerRunner.ts (submissions/<name>/LearnerRunner.ts), or per .ts/.js\n' +
    '  file; for several, one line each as it is graded, then a table.',
  'help.grade.scenarios': 'grade against these scenario files (or ids) instead of the\ngraded set (the 17, then scenarios/graded)',
  'help.grade.heldOut': "add a teacher's held-out scenarios to those graded\n(their faults stay hidden in results.json)",
  'help.grade.noExplore': 'grade the scenarios as written only\n(the score is then out of one test per scenario)',
  'help.grade.hint': 'climb the hint ladder: 1 (default), 2 or 3',
  'help.grade.summary': 'several submissions: print only the progress and the table at the end',
  'help.grade.json': 'Exercism results.json (v3); several submissions: one entry\neach, with its name and score',
  'help.grade.junit': 'JUnit XML: one testsuite per submission, one testcase per\nscenario and part',
  'help.grade.resultsDir': "Exercism's layout: DIR/results.json for one submission,\nDIR/<name>/results.json for several",
  'help.grade.replays': 'where the replay files of explored failures go\n(default {dir}/; a class: one folder each)',
  'help.grade.revealFaults': "show held-out scenarios' faults in results.json\n(hidden from the learner by default)",
  'help.grade.jobs': 'submissions graded at once (default: one per core)',
  'help.grade.loadTimeout': 'stop a file whose loading takes longer (default {ms})',
  'help.grade.timeout': 'stop a run that takes longer (default {ms}, at most {max})',

  // ── explore ───────────────────────────────────────────────────────────────────────────────────────
  'help.explore.head':
    'faultlab explore [SCENARIO…] [options]\n' +
    '  Run each scenario (default: the 17) with one added fault at every point the fault catalogue allows\n' +
    '  (depth 1) or two (depth 2), check the invariants of docs/spec.md §7 after each run, and shrink every\n' +
    '  violation to its smallest schedule, written as a scenario file that `faultlab run` replays. A scenario\n' +
    "  of many workers (docs/spec.md §11) is run under their interleavings too, and with each worker's lease\n" +
    '  expiring, or the worker paused, at every point of its loop; the invariants of §12 are checked as well.',
  'help.explore.depth': 'faults added per schedule, at most (default 1)',
  'help.explore.mutants': 'run every mutant (broken runner or store) over the scenarios and the exploration',
  'help.explore.out': 'where replay files go (default: faultlab-explore/ in the current folder)',
  'help.explore.workers': 'worker threads (default: one per core)',
  'help.explore.preemptions':
    'many workers: pre-emptions per run, at most (default {n}) — a pre-emption takes the turn\nfrom a worker that could still move; an added fault takes one of them',

  // ── dlq ───────────────────────────────────────────────────────────────────────────────────────────
  'help.dlq.head':
    'faultlab dlq DIR [--replay ID] [options]\n' +
    '  The dead letters kept in DIR by `faultlab run SCENARIO --keep-db DIR` (a scenario with a durability.dlq block\n' +
    '  whose run ended retry_exhausted or budget_exhausted with an action pending): one line each. With --replay, carry\n' +
    "  that record's intent through a fresh runner with the same key, against DIR's databases, and check the invariants\n" +
    '  over the whole log, the replay included.',
  'help.dlq.replay': 'replay this pending record (e.g. dlq-000001)',
} as const;
