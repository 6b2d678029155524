/** Types of naiveFloor.mjs (plain JavaScript). */
export const NAIVE_STATEMENTS: number;
export function naiveRun(): number;
export function naiveRuns(n: number): void;
