/**
 * What a run runs, when it cannot be had: a `--runner` that names no mutant, no file or no runner class
 * (src/runner/load.ts, src/sim/target.ts), and a kept folder with no run in it (src/sim/keptDeadLetters.ts).
 */
export const target = {
  'target.noSuchFile': 'no such file {file}',
  'target.noRunnerClass': '{file}: no runner class found (a class with a step(state) method, or a worker with claim, finish and sweep); it exports {found}',
  'target.exportsNothing': 'nothing',
  'target.noSuchMutant': '{name}: no such mutant (known: {known})',
  'target.noSuchMutantNamed': 'no such mutant mutant:{name}',
  'target.noSuchRunnerFile': '{label}: no such file {file} (use reference, learner, mutant:NAME, or a path to a .ts/.js file exporting a runner class)',
  'target.noEventsDb': "no events.db in {dir} (keep a run's databases with: faultlab run SCENARIO --keep-db {dir})",
} as const;
