/**
 * The tools' refusals (src/inventory/refusals.ts): the English is the tool's own, the text its ContractError
 * carries; here under `refusal.<name>` so that every other language says each with the same placeholders.
 */
import { REFUSALS, type RefusalKey } from '../../../inventory/refusals.js';

export const refusal = Object.fromEntries(Object.entries(REFUSALS).map(([key, text]) => [`refusal.${key}`, text])) as {
  readonly [K in RefusalKey as `refusal.${K}`]: (typeof REFUSALS)[K];
};
