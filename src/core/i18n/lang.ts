/**
 * The language human text is written in: English (the default) or Chinese — the chapter's readers read
 * Chinese first. It is chosen once, by the CLI (`--lang zh|en`, else the locale: LC_ALL, LC_MESSAGES, LANG;
 * `zh*` means Chinese) or by whoever embeds faultlab, and handed to every worker thread and child process a
 * command starts. Only human text changes with it: JSON keys, scenario ids, event labels that are data, exit
 * codes and every figure are the same in both. The same seed and the same language give the same bytes.
 */
export const LANGS = ['en', 'zh'] as const;
export type Lang = (typeof LANGS)[number];

let current: Lang = 'en';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

export function setLang(lang: Lang): void {
  current = lang;
}

export function currentLang(): Lang {
  return current;
}

/** Run `work` in a language, then put the previous one back (tests, and code that must speak one language). */
export function withLang<T>(lang: Lang, work: () => T): T {
  const before = current;
  current = lang;
  try {
    return work();
  } finally {
    current = before;
  }
}

/**
 * The same for asynchronous work: the language is put back when `work` settles. The language is one for the
 * process (or thread), so two such works must not overlap — a command runs in one language from start to end.
 */
export async function withLangAsync<T>(lang: Lang, work: () => Promise<T>): Promise<T> {
  const before = current;
  current = lang;
  try {
    return await work();
  } finally {
    current = before;
  }
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
