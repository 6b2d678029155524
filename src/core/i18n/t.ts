/**
 * `t(key, params)`: a message in the current language, its `{placeholders}` filled. A key and its
 * placeholders are checked by the types (the key) and by test/core/i18n.test.ts (the placeholders of every
 * language match English's); a placeholder without a value is a bug and throws.
 */
import { en, type MessageKey } from './en/index.js';
import { currentLang, type Lang } from './lang.js';
import { zh } from './zh/index.js';

export type { MessageKey } from './en/index.js';

export type Params = Readonly<Record<string, string | number>>;

const CATALOGUES: Readonly<Record<Lang, { readonly [K in MessageKey]: string }>> = { en, zh };

const PLACEHOLDER = /\{([a-zA-Z][a-zA-Z0-9_]*)\}/g;

export function t(key: MessageKey, params: Params = {}, lang: Lang = currentLang()): string {
  const template = CATALOGUES[lang][key];
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`message ${key} (${lang}) needs {${name}}`);
    return String(value);
  });
}

/** The placeholders a message names, sorted: the same for a key in every language. */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))].sort();
}

export function catalogue(lang: Lang): { readonly [K in MessageKey]: string } {
  return CATALOGUES[lang];
}
