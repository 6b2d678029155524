/**
 * The languages human text is written in: English (the default) and Chinese — the chapter's readers read
 * Chinese first. There is no current language: the CLI decides it once (`--lang zh|en`, else the locale:
 * LC_ALL, LC_MESSAGES, LANG; `zh*` means Chinese) and hands it to whatever words a message (src/render/words)
 * or picks a scenario's own words (src/scenario/words.ts). Only human text changes with it: JSON keys and
 * codes, scenario ids, event labels that are data, exit codes and every figure are the same in both. The
 * same seed and the same language give the same bytes.
 */
export const LANGS = ['en', 'zh'] as const;
export type Lang = (typeof LANGS)[number];

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

/**
 * The language a locale names, as POSIX looks them up: LC_ALL wins, then LC_MESSAGES, then LANG; the first
 * that is set and not empty decides. `zh_CN.UTF-8`, `zh_TW`, `zh` → Chinese; anything else → English.
 */
export function langFromLocale(env: Record<string, string | undefined>): Lang {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = env[name];
    if (value !== undefined && value !== '') return /^zh([_.@-]|$)/i.test(value) ? 'zh' : 'en';
  }
  return 'en';
}
