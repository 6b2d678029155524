/**
 * The messages of src/runner: a module without a runner class, and the determinism guard's refusal. The
 * catalogues (src/render/words) word them.
 */
export const RUNNER_CODES = ['target.noRunnerClass', 'target.exportsNothing', 'grade.determinism', 'runner.notImplemented'] as const;

export type RunnerCode = (typeof RUNNER_CODES)[number];
