/**
 * `faultlab grade --html DIR`: one page per graded scenario — the reference run beside the learner's, up to
 * the first divergence the grader found. The grader keeps no runs (the learner's code runs in a thread of its
 * own), so each page replays its scenario here, exactly as `faultlab run --runner FILE` does: the same seed,
 * inside the same determinism guard, so it is the run the grade saw. A scenario whose run never finished
 * (a hang, a dead thread, a file that would not load) is not replayed: its page says why.
 */
import { basename } from 'node:path';
import { t } from '../core/i18n/index.js';
import { judge } from '../check/verdict.js';
import type { RunResult } from '../check/RunResult.js';
import { guardRunner } from '../runner/guardRunner.js';
import type { SubmissionGrade } from '../grade/types.js';
import { renderGradeHtml, renderTextPageHtml } from '../render/html/index.js';
import type { Scenario } from '../scenario/types.js';
import { simulate } from '../sim/simulate.js';
import { resolveRunner } from '../sim/target.js';
import type { HtmlOut } from './htmlOut.js';
import { titleOf } from '../scenario/words.js';

/** Problems after which the learner's run is not replayed in this process. */
const NOT_REPLAYED = new Set(['timeout', 'worker_crash', 'load_error', 'reference_fails']);

export async function writeGradePages(out: HtmlOut, file: string, grade: SubmissionGrade, scenarios: readonly Scenario[], seed: number, cwd: string): Promise<void> {
  const replayable = grade.loadError === null;
  const runner = replayable ? guardRunner((await resolveRunner(file, cwd)).runner) : null;
  const prefix = basename(grade.file).replace(/\.[jt]s$/, '');
  for (const [i, sg] of grade.scenarios.entries()) {
    const scenario = scenarios[i]!;
    const entry = { id: `${grade.file} · ${sg.id}`, title: titleOf(scenario), status: sg.figures ?? sg.problem?.title ?? '', passed: sg.status === 'pass' };
    if (runner === null || (sg.problem !== null && NOT_REPLAYED.has(sg.problem.id))) {
      out.add(`${prefix}__${sg.id}`, renderTextPageHtml(`${sg.id} (${grade.file})`, t('cli.grade.notReplayed', { why: sg.problem?.message ?? t('cli.grade.noRun') })), entry);
      continue;
    }
    const reference: RunResult = judge(simulate(scenario, { seed, storage: 'memory' }));
    const learner: RunResult = judge(simulate(scenario, { runner, seed, storage: 'memory' }));
    out.add(`${prefix}__${sg.id}`, renderGradeHtml(reference, learner, sg.divergence), entry);
  }
}
