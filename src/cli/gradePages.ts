/**
 * `faultlab grade --html DIR`: one page per graded scenario — the reference run beside the learner's, up to
 * the first divergence the grader found. The grader keeps no runs, so each page replays its scenario, exactly
 * as `faultlab run --runner FILE` does: the same seed, the learner's code in its box, so it is the run the
 * grade saw. A scenario whose run never finished (a hang, a dead process, a file that would not load) is not
 * replayed: its page says why.
 */
import { basename } from 'node:path';
import { said, t, type Lang } from '../render/words/index.js';
import { divergenceText } from '../grade/divergence.js';
import { judge } from '../check/verdict.js';
import type { RunResult } from '../check/RunResult.js';
import type { SubmissionGrade } from '../grade/types.js';
import { renderGradeHtml, renderTextPageHtml } from '../render/html/index.js';
import type { Scenario } from '../scenario/types.js';
import { simulate } from '../sim/simulate.js';
import { openRunner, sourceOf } from '../target/runners.js';
import { RunnerConstructorError } from '../box/boxedRunner.js';
import type { HtmlOut } from './htmlOut.js';
import { titleOf } from '../scenario/words.js';

/** Problems after which the learner's run is not replayed in this process. */
const NOT_REPLAYED = new Set(['timeout', 'worker_crash', 'load_error', 'reference_fails']);

export async function writeGradePages(lang: Lang, out: HtmlOut, file: string, grade: SubmissionGrade, scenarios: readonly Scenario[], seed: number, cwd: string): Promise<void> {
  const opened = grade.loadError === null ? await openRunner(sourceOf(file, cwd), file).catch(() => null) : null;
  try {
    await pages(lang, out, opened, grade, scenarios, seed);
  } finally {
    await opened?.close();
  }
}

async function pages(lang: Lang, out: HtmlOut, opened: Awaited<ReturnType<typeof openRunner>> | null, grade: SubmissionGrade, scenarios: readonly Scenario[], seed: number): Promise<void> {
  const prefix = basename(grade.file).replace(/\.[jt]s$/, '');
  for (const [i, sg] of grade.scenarios.entries()) {
    const scenario = scenarios[i]!;
    const entry = { id: `${grade.file} · ${sg.id}`, title: titleOf(scenario, lang), status: said(lang, sg.figures ?? sg.problem?.title ?? ''), passed: sg.status === 'pass' };
    if (opened === null || (sg.problem !== null && NOT_REPLAYED.has(sg.problem.id))) {
      out.add(`${prefix}__${sg.id}`, renderTextPageHtml(lang, `${sg.id} (${grade.file})`, t(lang, 'cli.grade.notReplayed', { why: sg.problem?.message ?? t(lang, 'cli.grade.noRun') })), entry);
      continue;
    }
    const reference: RunResult = judge(await simulate(scenario, { seed, storage: 'memory' }));
    await opened.beginRun();
    let learner: RunResult | null = null;
    try {
      learner = judge(await simulate(scenario, { runner: opened.runner, seed, storage: 'memory' }));
    } catch (error) {
      if (!(error instanceof RunnerConstructorError)) throw error;
    } finally {
      await opened.endRun();
    }
    if (learner === null) out.add(`${prefix}__${sg.id}`, renderTextPageHtml(lang, `${sg.id} (${grade.file})`, t(lang, 'cli.grade.notReplayed', { why: sg.problem?.message ?? t(lang, 'cli.grade.noRun') })), entry);
    else {
      const divergence = sg.divergence === null ? null : { step: sg.divergence.step, ...(sg.divergence.seq !== undefined ? { seq: sg.divergence.seq } : {}), text: divergenceText(lang, sg.divergence) };
      out.add(`${prefix}__${sg.id}`, renderGradeHtml(lang, reference, learner, divergence), entry);
    }
  }
}
