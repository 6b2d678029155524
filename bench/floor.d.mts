/** Types of floor.mjs (plain JavaScript, so a worker thread loads it without a TypeScript loader). */
import type { Op } from './record.js';

export function replayRuns(runs: Op[][]): void;
