/**
 * Error brands. faultlab's error classes are recognised by a global brand (a `Symbol.for` key on the
 * instance) rather than by prototype, so `instanceof` and the type guards also hold for an error thrown by
 * another copy of the module that defines it — a learner's runner loaded from source by tsx while the
 * simulator runs from the compiled build has its own copy of every class.
 */

/** The brand of one family of errors: `Symbol.for('faultlab.<name>')`, the same symbol in every copy. */
export function brandOf(name: string): symbol {
  return Symbol.for(`faultlab.${name}`);
}

/** Mark an instance (non-enumerable, so it never shows in JSON or a diff). */
export function setBrand(target: object, brand: symbol): void {
  Object.defineProperty(target, brand, { value: true });
}

export function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
