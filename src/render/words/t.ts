/**
 * Wording: a message (src/core/message.ts) in a language, from the catalogues of this folder. `t(lang, key,
 * params)` fills a key's `{placeholders}`; `word(lang, message)` words a message the engine made, a parameter
 * that is a message worded too. A key and its placeholders are checked by the types (the key) and by
 * test/render/words.test.ts (the placeholders of every language match English's); a placeholder without a
 * value is a bug and throws. Only the renderers and the consumers above them word (test/architecture.test.ts).
 */
import type { Lang } from '../../core/lang.js';
import { message, type Message, type Params, type Said } from '../../core/message.js';
import type { ProducedCode } from './codes.js';
import { en, type MessageKey } from './en/index.js';
import { zh } from './zh/index.js';

export type { MessageKey } from './en/index.js';
export type { Params } from '../../core/message.js';

/**
 * A catalogue: a text for every key English has, and for every code a layer below can say. A layer's new code
 * without a text in each language does not compile.
 */
export type Catalogue = { readonly [K in MessageKey | ProducedCode]: string };

const CATALOGUES: Readonly<Record<Lang, Catalogue>> = { en, zh };

const PLACEHOLDER = /\{([a-zA-Z][a-zA-Z0-9_]*)\}/g;

export function t(lang: Lang, key: MessageKey, params: Params = {}): string {
  const template = (CATALOGUES[lang] as Readonly<Record<string, string>>)[key];
  if (template === undefined) throw new Error(`no message ${key} (${lang})`);
  const parts = compiled(template);
  if (parts.length === 1) return template; // no placeholder
  let text = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i]!;
    const value = params[name];
    if (value === undefined) throw new Error(`message ${key} (${lang}) needs {${name}}`);
    text += (typeof value === 'object' ? word(lang, value) : String(value)) + parts[i + 1]!;
  }
  return text;
}

/** A message in a language: its code's text, its parameters filled (a parameter that is a message, worded too). */
export function word(lang: Lang, message: Message): string {
  return t(lang, message.code as MessageKey, message.params);
}

/** What was said, in a language: a runner's own text (or a figure) as it is, a message worded. */
export function said(lang: Lang, text: Said | number): string {
  return typeof text === 'object' ? word(lang, text) : String(text);
}

/**
 * A template split once at its placeholders — text, name, text, … — and remembered: the simulator says the
 * same few messages thousands of times in an exploration (every check's title, every crash), and a regular
 * expression replace on each was ~2 % of its time. The catalogues are fixed, so the cache is bounded by them.
 */
function compiled(template: string): string[] {
  let parts = splitTemplates.get(template);
  if (parts === undefined) splitTemplates.set(template, (parts = template.split(PLACEHOLDER)));
  return parts;
}
const splitTemplates = new Map<string, string[]>();

/** The placeholders a message names, sorted: the same for a key in every language. */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))].sort();
}

export function catalogue(lang: Lang): Catalogue {
  return CATALOGUES[lang];
}

/** A message of a consumer above the renderers (grade, explore, labs, classroom, cli): any key of the catalogues. */
export function msg(key: MessageKey, params?: Params): Message<MessageKey> {
  return message(key, params);
}
