/**
 * Wording: a message (src/core/message.ts) in a language, from the catalogues of this folder. `t(lang, key,
 * params)` fills a key's `{placeholders}`; `word(lang, message)` words a message the engine made, a parameter
 * that is a message worded too. A key and its placeholders are checked by the types (the key) and by
 * test/render/words.test.ts (the placeholders of every language match English's); a placeholder without a
 * value is a bug and throws. A text parameter that holds a tool's refusal (`STALE_VERSION: expected version 0,
 * found 1`: English the tool built, src/inventory/refusals.ts) is worded in the language too (refusalText.ts).
 * Only the renderers and the consumers above them word (test/architecture.test.ts).
 */
import type { Lang } from '../../core/lang.js';
import { message, type Message, type Params, type Said } from '../../core/message.js';
import type { ProducedCode } from './codes.js';
import { en, type MessageKey } from './en/index.js';
import { zh } from './zh/index.js';
import { findRefusals } from './refusalText.js';

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
    text += (typeof value === 'object' ? word(lang, value) : typeof value === 'string' ? toolText(lang, value) : String(value)) + parts[i + 1]!;
  }
  return text;
}

/** A message in a language: its code's text, its parameters filled (a parameter that is a message, worded too). */
export function word(lang: Lang, message: Message): string {
  return t(lang, message.code as MessageKey, message.params);
}

/** What was said, in a language: a runner's own text (or a figure) as it is — a tool's refusal in it worded — a message worded. */
export function said(lang: Lang, text: Said | number): string {
  return typeof text === 'object' ? word(lang, text) : typeof text === 'string' ? toolText(lang, text) : String(text);
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

/**
 * Every tool refusal in a text worded in `lang`, its code and values unchanged (`STALE_VERSION: expected version
 * 0, found 1` → `STALE_VERSION: 预期版本 0，实际是 1`). English is the tools' own, returned as it is; so is text
 * with no refusal in it, or one whose template this build does not know.
 */
export function toolText(lang: Lang, text: string): string {
  if (lang === 'en') return text;
  const found = findRefusals(text);
  if (found.length === 0) return text;
  let out = '';
  let from = 0;
  for (const { start, end, key, params } of found) {
    out += text.slice(from, start) + t(lang, `refusal.${key}` as MessageKey, params);
    from = end;
  }
  return out + text.slice(from);
}
