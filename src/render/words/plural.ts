/**
 * A message that depends on a count: English says "1 attempt" and "2 attempts", Chinese says both alike.
 * A counted message is two keys, `<base>.one` and `<base>.other`, each with the count as `{n}`; `tn` picks
 * one by the count. Only English needs the two; a Chinese catalogue gives both keys the same text.
 */
import type { Lang } from '../../core/lang.js';
import type { Message } from '../../core/message.js';
import { msg, t, type MessageKey, type Params } from './t.js';

/** The bases that have both a `.one` and an `.other` message. */
export type CountedKey = {
  [K in MessageKey]: K extends `${infer B}.one` ? (`${B}.other` extends MessageKey ? B : never) : never;
}[MessageKey];

export function tn(lang: Lang, base: CountedKey, n: number, params: Params = {}): string {
  return t(lang, `${base}.${n === 1 ? 'one' : 'other'}` as MessageKey, { n, ...params });
}

/** The counted message as data: `.one` or `.other` by the count (the choice is the same in every language). */
export function msgn(base: CountedKey, n: number, params: Params = {}): Message<MessageKey> {
  return msg(`${base}.${n === 1 ? 'one' : 'other'}` as MessageKey, { n, ...params });
}
