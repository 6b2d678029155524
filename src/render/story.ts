/**
 * A run's header tells its scenario's explanation. A shipped scenario's tells the story as the reference
 * runner lives it, so the header says so when another runner plays it; a replay file's (tagged `explored`)
 * tells who broke what under which faults, which holds whoever plays it.
 */
import type { RunResult } from '../check/RunResult.js';
import { t, type Lang } from './words/index.js';
import { EXPLORED_TAG } from '../scenario/types.js';
import { wordsOf } from '../scenario/words.js';

export function storyOf(lang: Lang, run: RunResult): string {
  const { explain } = wordsOf(run.scenario, lang);
  return run.runner === 'ReferenceRunner' || run.scenario.tags.includes(EXPLORED_TAG) ? explain : t(lang, 'trace.head.withReference', { explain });
}
