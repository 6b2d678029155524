import { ConfigError } from '../errors.js';

/**
 * Small checks shared by every validator: each throws the given error class naming the field, the allowed
 * range in words and the value given (STYLE 8: bad configuration is rejected at load time, and says why).
 */

export type FieldErrorClass = new (field: string, allowed: string, given: unknown) => ConfigError;

export interface NumberRule {
  integer?: boolean;
  /** Inclusive lower bound. */
  min?: number;
  /** Exclusive lower bound. */
  above?: number;
  /** Inclusive upper bound. */
  max?: number;
}

export function describeRule(rule: NumberRule): string {
  const parts: string[] = [rule.integer ? 'an integer' : 'a number'];
  if (rule.above !== undefined && rule.max !== undefined) return `${parts[0]} in (${rule.above}, ${rule.max}]`;
  if (rule.min !== undefined && rule.max !== undefined) return `${parts[0]} in [${rule.min}, ${rule.max}]`;
  if (rule.above !== undefined) parts.push(`> ${rule.above}`);
  if (rule.min !== undefined) parts.push(`>= ${rule.min}`);
  if (rule.max !== undefined) parts.push(`<= ${rule.max}`);
  return parts.join(' ');
}

export function checkNumber(Err: FieldErrorClass, field: string, value: unknown, rule: NumberRule): number {
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!rule.integer || Number.isInteger(value)) &&
    (rule.min === undefined || value >= rule.min) &&
    (rule.above === undefined || value > rule.above) &&
    (rule.max === undefined || value <= rule.max);
  if (!ok) throw new Err(field, describeRule(rule), value);
  return value as number;
}

export function checkString(Err: FieldErrorClass, field: string, value: unknown, what = 'a non-empty string'): string {
  if (typeof value !== 'string' || value.trim() === '') throw new Err(field, what, value);
  return value;
}

export function checkBoolean(Err: FieldErrorClass, field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new Err(field, 'true or false', value);
  return value;
}

export function checkStringList(Err: FieldErrorClass, field: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v === '')) {
    throw new Err(field, 'a list of error codes (non-empty strings)', value);
  }
  return [...(value as string[])];
}

export function checkOneOf<T extends string>(Err: FieldErrorClass, field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) throw new Err(field, `one of ${allowed.join(', ')}`, value);
  return value as T;
}
