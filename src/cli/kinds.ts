/**
 * Scenario kinds other than the runner's (the durability pillars) plug in here: how to run one and how to
 * show it. The registry keeps `run` ignorant of what a pillar is.
 */
import type { Style } from '../trace/style.js';

export interface KindResult {
  status: string;
  passed: boolean;
  firstProblem?: string;
  json: unknown;
}

export interface KindRunner {
  run(value: unknown, options: { seed: number; file: string }): KindResult;
  render(result: KindResult, style: Style, position: string): string;
}

import { pillarKind } from './pillarKind.js';

export const otherKindRunners = new Map<string, KindRunner>([['pillar', pillarKind]]);
