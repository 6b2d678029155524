/** Types of floor.mjs (plain JavaScript). */
import type { Op } from './record.js';

export function replay(ops: readonly Op[]): void;
