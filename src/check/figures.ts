import { isDeepStrictEqual } from 'node:util';
import type { Check } from './types.js';
import { jsonCopy } from '../core/canonical.js';
import { message, type Message, type Param } from '../core/message.js';
import type { CheckCode } from './codes.js';

/**
 * A scenario's `expect:` block, turned into checks. Each key names a figure of the run, or a dotted path
 * into one (`outcomes.first_try`, `transition_payloads.0.failure_rate`); the check holds when the figure
 * equals the expected value exactly (figures are rounded where a ratio would otherwise be unreadable).
 */

/** What each figure means, by the head of its path: words of the lab's own (a message, or a text). */
export type Meanings = Record<string, Param>;

export function lookup(figures: Record<string, unknown>, path: string): { found: boolean; value: unknown } {
  let value: unknown = figures;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, part)) return { found: false, value: undefined };
    value = (value as Record<string, unknown>)[part];
  }
  return { found: true, value };
}

const show = (value: unknown): string => JSON.stringify(value) ?? String(value);

export function expectationChecks(expect: Record<string, unknown>, figures: Record<string, unknown>, meanings: Meanings): Check[] {
  return Object.entries(expect).map(([key, expected]) => {
    const head = key.split('.')[0] ?? key;
    const meaning = meanings[head];
    const { found, value } = lookup(figures, key);
    const actual = found ? jsonCopy(value) : undefined;
    const passed = found && isDeepStrictEqual(actual, expected);
    let said: Message<CheckCode>;
    const params = { key, expected: show(expected), actual: show(actual) };
    if (passed) said = message('check.lab.asExpected', params);
    else if (!found) said = message('check.lab.noSuchFigure', { ...params, figures: Object.keys(figures).join(', ') });
    else said = meaning ? message('check.lab.differsMeaning', { ...params, meaning }) : message('check.lab.differs', params);
    // The title is the figure's path, as a runner's checks are titled `status` or `calls`; its meaning goes in the message.
    return { id: key, kind: 'expectation', title: message('check.figure.title', { figure: key }), passed, expected, actual, message: said };
  });
}
