/** Option values shared by several commands, validated with messages that name the option. */
import { DEFAULT_SEED } from '../defaults.js';
import { UsageError } from './io.js';

export function parseSeed(value: string | undefined): number {
  if (value === undefined) return DEFAULT_SEED;
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`--seed must be an integer, got ${JSON.stringify(value)}`);
  return Number(value);
}
