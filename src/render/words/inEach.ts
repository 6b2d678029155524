/**
 * A human text in each language faultlab speaks, for what outlives the command that made it in one — a replay
 * file says what broke in English and in its `zh:` block, whichever language the exploration ran in.
 */
import { LANGS, type Lang } from '../../core/lang.js';

export type InEach = Readonly<Record<Lang, string>>;

export function inEach(say: (lang: Lang) => string): InEach {
  return Object.fromEntries(LANGS.map((lang) => [lang, say(lang)])) as Record<Lang, string>;
}
