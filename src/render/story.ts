/**
 * A run's header tells its scenario's explanation. A shipped scenario's tells the story as the reference
 * runner lives it, so the header says so when another runner plays it; a replay file's (tagged `explored`)
 * tells who broke what under which faults, which holds whoever plays it.
 */
import type { RunResult } from '../check/RunResult.js';
import { t } from '../core/i18n/index.js';
import { EXPLORED_TAG } from '../scenario/types.js';
import { wordsOf } from '../scenario/words.js';

export function storyOf(run: RunResult): string {
  const { explain } = wordsOf(run.scenario);
  return run.runner === 'ReferenceRunner' || run.scenario.tags.includes(EXPLORED_TAG) ? explain : t('trace.head.withReference', { explain });
}
