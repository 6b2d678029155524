/**
 * `t(key, params)`: a message in the current language, its `{placeholders}` filled. A key and its
 * placeholders are checked by the types (the key) and by test/core/i18n.test.ts (the placeholders of every
 * language match English's); a placeholder without a value is a bug and throws.
 */
import { en, type MessageKey } from './en/index.js';
import { currentLang, type Lang } from './lang.js';
import { zh } from './zh/index.js';
import type { Message, Params, Said } from '../message.js';

export type { MessageKey } from './en/index.js';
export type { Params } from '../message.js';

const CATALOGUES: Readonly<Record<Lang, { readonly [K in MessageKey]: string }>> = { en, zh };

const PLACEHOLDER = /\{([a-zA-Z][a-zA-Z0-9_]*)\}/g;

export function t(key: MessageKey, params: Params = {}, lang: Lang = currentLang()): string {
  const template = CATALOGUES[lang][key];
  const parts = compiled(template);
  if (parts.length === 1) return template; // no placeholder
  let text = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i]!;
    const value = params[name];
    if (value === undefined) throw new Error(`message ${key} (${lang}) needs {${name}}`);
    text += (typeof value === 'object' ? word(value, lang) : String(value)) + parts[i + 1]!;
  }
  return text;
}

/** A message in a language: its code's text, its parameters filled (a parameter that is a message, worded too). */
export function word(message: Message, lang: Lang = currentLang()): string {
  return t(message.code as MessageKey, message.params, lang);
}

/** What was said, in a language: a runner's own text as it is, a message worded. */
export function said(text: Said, lang: Lang = currentLang()): string {
  return typeof text === 'string' ? text : word(text, lang);
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

export function catalogue(lang: Lang): { readonly [K in MessageKey]: string } {
  return CATALOGUES[lang];
}
