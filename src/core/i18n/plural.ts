/**
 * A message that depends on a count: English says "1 attempt" and "2 attempts", Chinese says both alike.
 * A counted message is two keys, `<base>.one` and `<base>.other`, each with the count as `{n}`; `tn` picks
 * one by the count. Only English needs the two; a Chinese catalogue gives both keys the same text.
 */
import { t, type MessageKey, type Params } from './t.js';
import type { Lang } from './lang.js';

/** The bases that have both a `.one` and an `.other` message. */
export type CountedKey = {
  [K in MessageKey]: K extends `${infer B}.one` ? (`${B}.other` extends MessageKey ? B : never) : never;
}[MessageKey];

export function tn(base: CountedKey, n: number, params: Params = {}, lang?: Lang): string {
  const key = `${base}.${n === 1 ? 'one' : 'other'}` as MessageKey;
  return lang === undefined ? t(key, { n, ...params }) : t(key, { n, ...params }, lang);
}
