/**
 * Every code a layer below the renderers can say, each layer's list as it declares it. The catalogues of this
 * folder are typed by them (t.ts: Catalogue), and test/render/words.test.ts checks each has a text in every
 * language with the placeholders its producer fills.
 */
import { BOX_CODES } from '../../box/codes.js';
import { CHECK_CODES } from '../../check/codes.js';
import { CORE_CODES } from '../../core/codes.js';
import { DURABILITY_CODES } from '../../durability/codes.js';
import { FAULT_CODES } from '../../faults/codes.js';
import { MUTANT_CODES } from '../../mutants/codes.js';
import { POSTGRES_CODES } from '../../postgres/codes.js';
import { RUNNER_CODES } from '../../runner/codes.js';
import { SCENARIO_CODES } from '../../scenario/codes.js';
import { SIM_CODES } from '../../sim/codes.js';
import { TARGET_CODES } from '../../target/codes.js';

/** By layer, bottom-up (test/architecture.test.ts: LAYERS). */
export const PRODUCED_CODES = {
  core: CORE_CODES,
  postgres: POSTGRES_CODES,
  faults: FAULT_CODES,
  scenario: SCENARIO_CODES,
  runner: RUNNER_CODES,
  box: BOX_CODES,
  mutants: MUTANT_CODES,
  target: TARGET_CODES,
  durability: DURABILITY_CODES,
  sim: SIM_CODES,
  check: CHECK_CODES,
} as const;

export type ProducedCode = (typeof PRODUCED_CODES)[keyof typeof PRODUCED_CODES][number];
