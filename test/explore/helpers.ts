/** Set-up shared by the explorer's tests: the 17 scenarios, a temporary folder, a target. */
import { tempFolder } from '../tempFolder.js';
import type { Target } from '../../src/explore/target.js';
import type { Mutant } from '../../src/mutants/catalogue.js';
import { ReferenceRunner } from '../../src/runner/ReferenceRunner.js';
import { loadScenarios } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/types.js';

let all: Scenario[] | undefined;
export const seventeen = (): Scenario[] => (all ??= loadScenarios());
export const byId = (id: string): Scenario => seventeen().find((s) => s.id === id)!;

export const tempDir = (): string => tempFolder('explore');

export const reference: Target = { runner: ReferenceRunner, seed: 42, storage: 'memory' };
export const mutantTarget = (mutant: Mutant): Target => ({ runner: mutant.runner, tool: mutant.tool, seed: 42, storage: 'memory' });
