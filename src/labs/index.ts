/**
 * The labs (`kind: lab`, scenarios/labs/*.yaml, validated against scenarios/labs/lab.schema.json): the
 * experiments on the durability pillars that are not runner-shaped. The CLI loads and validates the YAML
 * (src/scenario/load.ts), calls runLab, and prints renderLabRun.
 */
export type { LabEvent, LabRun, LabScenario, LabTraceEvent } from './types.js';
export { EXPERIMENTS, runLab } from './runLab.js';
export { renderLabRun } from './renderLab.js';
export { describeLabEvent } from './describeLabEvent.js';
export { ScenarioInputError } from './ScenarioInputError.js';
