/** Human text in two languages: the catalogues, and the wording of a key or a message in the language given. */
export { isLang, LANGS, langFromLocale, type Lang } from '../../core/lang.js';
export { inEach, type InEach } from './inEach.js';
export { msgn, tn, type CountedKey } from './plural.js';
export { catalogue, msg, placeholders, said, t, toolText, word, type Catalogue, type MessageKey, type Params } from './t.js';
export type { Message, Said } from '../../core/message.js';
export { PRODUCED_CODES, type ProducedCode } from './codes.js';
