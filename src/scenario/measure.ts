/**
 * The size of parsed YAML data as every later step will see it. A YAML alias shares one value between
 * places, so the data is small in memory; but validation, copies and JSON walk it once per place, and ten
 * nested aliases of ten each make ten billion. This walks the data the same way — every alias expanded —
 * and stops as soon as it has seen more than MAX_VALUES, so it is bounded whatever the file says. It also
 * finds numbers no scenario can use: `.inf`, `-.inf`, `.nan`, and `1e400` (which YAML reads as infinity).
 */
import { MAX_DEPTH, MAX_VALUES } from './limits.js';
import type { PathSegment } from './yamlSource.js';

export interface Measure {
  /** More than MAX_VALUES values once aliases are expanded (the walk stopped there). */
  tooLarge: boolean;
  /** Deeper than MAX_DEPTH (the walk does not go further down). */
  tooDeep: boolean;
  /** Each non-finite number and where it is. */
  nonFinite: Array<{ path: PathSegment[]; value: number }>;
}

export function measure(data: unknown): Measure {
  const result: Measure = { tooLarge: false, tooDeep: false, nonFinite: [] };
  let values = 0;
  // An explicit stack: no recursion, so no stack overflow on any input.
  const stack: Array<{ value: unknown; path: PathSegment[] }> = [{ value: data, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    values += 1;
    if (values > MAX_VALUES) {
      result.tooLarge = true;
      break;
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      result.nonFinite.push({ path, value });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_DEPTH) {
      result.tooDeep = true;
      continue;
    }
    const entries: Array<[PathSegment, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i -= 1) stack.push({ value: entries[i]![1], path: [...path, entries[i]![0]] });
  }
  return result;
}

/** How a non-finite number is written in YAML, for messages (JSON would say `null`). */
export function yamlNumber(value: number): string {
  if (Number.isNaN(value)) return '.nan';
  if (value === Infinity) return '.inf';
  if (value === -Infinity) return '-.inf';
  return String(value);
}

export const isOk = (m: Measure) => !m.tooLarge && !m.tooDeep && m.nonFinite.length === 0;
