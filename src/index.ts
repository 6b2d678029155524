/** The public API of faultlab: exactly what this file re-exports. */
export { simulate, type SimulateOptions, type ToolClass } from './sim/simulate.js';
export type { RunResult, RunnerFailure } from './sim/RunResult.js';
export { loadScenario, loadScenarios, loadAll } from './scenario/load.js';
export { ScenarioError, type ScenarioProblem } from './scenario/ScenarioError.js';
export type { Scenario, Task, Expectations, TerminalStatus, RunStatus } from './scenario/types.js';
export { BaseRunner, type Runner, type RunnerClass, type RunnerDeps } from './runner/BaseRunner.js';
export { ReferenceRunner } from './runner/ReferenceRunner.js';
export { LearnerRunner } from './runner/LearnerRunner.js';
export type { RunnerState, Action, ToolAction } from './runner/state.js';
export { TransientError, ContractError, isTransientError, isContractError, type ContractCode } from './inventory/errors.js';
export { idempotencyKey, fingerprint } from './inventory/keys.js';
export { INVARIANTS, type InvariantId } from './check/invariants.js';
export type { Check } from './check/types.js';
export type { TraceEvent } from './trace/events.js';
export { renderRun } from './trace/renderText.js';
export { makeStyle } from './trace/style.js';
export { MUTANTS, type Mutant } from './mutants/catalogue.js';
