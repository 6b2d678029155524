/**
 * A message in a language as HTML: its words escaped, and markup (a `<kbd>`, a `<span>` the script
 * fills in) put in at its placeholders as it is — so a sentence keeps its word order in every language and
 * its markup never passes through the catalogue.
 */
import { t, type Lang, type MessageKey, type Params } from '../words/index.js';
import { esc } from './escape.js';

export function say(lang: Lang, key: MessageKey, params: Params = {}, markup: Readonly<Record<string, string>> = {}): string {
  const names = Object.keys(markup);
  // A mark no message contains stands in for each piece of markup while the words are escaped.
  const marks = Object.fromEntries(names.map((name, i) => [name, `\u0000${i}\u0000`]));
  const text = esc(t(lang, key, { ...params, ...marks }));
  return text.replace(/\u0000(\d+)\u0000/g, (_, i: string) => markup[names[Number(i)]!]!);
}
