/**
 * A scenario's own words — its title and its explanation — in the language faultlab speaks. A scenario (a
 * runner's, a pillar's, a lesson's, a lab) is written in English and may say the same in Chinese in a
 * `zh: { title, explain }` block; a lab's `note:` step may carry its Chinese beside it in `zh:`. Whoever
 * shows a title, an explanation or a note asks here, so the choice is made in one place: Chinese when the
 * language is Chinese and the scenario gives Chinese, its English words otherwise (a scenario without `zh:`
 * reads the same in both languages). These are human text, never data: `--json` keeps the English title.
 */
import type { Lang } from '../core/lang.js';

/** What a scenario says about itself in one language. */
export interface ScenarioWords {
  title: string;
  explain: string;
}

/** A scenario as it is written: its English words, and its Chinese ones when it gives them. */
export interface Worded extends ScenarioWords {
  zh?: ScenarioWords;
}

/** The title and explanation to show in `lang`. */
export function wordsOf(scenario: Worded, lang: Lang): ScenarioWords {
  return lang === 'zh' && scenario.zh !== undefined ? scenario.zh : { title: scenario.title, explain: scenario.explain };
}

/** The title to show in `lang`. */
export function titleOf(scenario: Worded, lang: Lang): string {
  return wordsOf(scenario, lang).title;
}

/** A line written in the scenario (a lab's note), in `lang`: its Chinese when it gives one, else its English. */
export function saidIn(english: string, chinese: string | undefined, lang: Lang): string {
  return lang === 'zh' && chinese !== undefined ? chinese : english;
}
