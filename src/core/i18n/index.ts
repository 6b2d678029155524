/** Human text in two languages: the current language, the catalogues, `t()`. */
export { currentLang, isLang, LANGS, langFromLocale, setLang, withLang, withLangAsync, type Lang } from './lang.js';
export { inEach, type InEach } from './inEach.js';
export { catalogue, placeholders, said, t, word, type MessageKey, type Params } from './t.js';
