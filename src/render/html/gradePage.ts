/**
 * A graded scenario as a page: the reference run and the learner's run side by side, step by step, up to
 * the first step where they part (marked, with the grader's words), the rest of the learner's run folded
 * under it, and the learner's checks. Steps are the harness's: taking a step more for the same events is no
 * mistake, so the rows pair the two runs by step, not by event.
 */
import type { RunResult } from '../../check/RunResult.js';
import { figures } from '../renderText.js';
import { esc } from './escape.js';
import { laneHtml, type LaneHtml } from './lanes.js';
import { checksHtml, verdictWord } from './runPage.js';
import { page } from './page.js';
import { say } from './say.js';
import { titleOf } from '../../scenario/words.js';
import { t, type Lang } from '../words/index.js';

/** Where the two runs first differ (the grader's Divergence has this shape): the learner's step, its event number, the words. */
export interface DivergencePoint {
  step: number;
  seq?: number;
  text: string;
}

function byStep(lang: Lang, run: RunResult): Map<number, string[]> {
  const lanes = laneHtml(lang, run);
  const steps = new Map<number, string[]>();
  run.trace.forEach((event, i) => {
    const l: LaneHtml = lanes[i]!;
    const html = [...l.runner, ...l.wire, ...l.tool, ...l.db];
    if (html.length === 0) return;
    steps.set(event.step, [...(steps.get(event.step) ?? []), `<div class="${event.type === 'crash' ? 'cut' : 'ev'}">${html.join('')}</div>`]);
  });
  return steps;
}

export function renderGradeHtml(lang: Lang, reference: RunResult, learner: RunResult, divergence: DivergencePoint | null): string {
  const s = learner.scenario;
  const ref = byStep(lang, reference);
  const mine = byStep(lang, learner);
  const last = Math.max(0, ...ref.keys(), ...mine.keys());
  const cut = divergence?.step ?? last;
  const row = (step: number, moment: boolean) => {
    const marker = divergence !== null && step === divergence.step ? `<div class="diverge">${esc(divergence.text)}</div>` : '';
    const label = esc(t(lang, 'html.step', { n: step }));
    const attrs = moment ? ` id="s${step}" data-moment data-when="${label}"` : '';
    return `<li class="moment lanes${moment ? '' : ' after'}"${attrs}><div class="t">${label}</div><div class="ref">${(ref.get(step) ?? ['<span class="tone-dim">—</span>']).join('')}</div><div class="mine">${marker}${(mine.get(step) ?? ['<span class="tone-dim">—</span>']).join('')}</div></li>`;
  };
  const before = Array.from({ length: Math.min(cut, last) + 1 }, (_, step) => row(step, true));
  const after = Array.from({ length: Math.max(0, last - cut) }, (_, k) => row(cut + 1 + k, false));
  const body = [
    '<header class="top">',
    `<h1><code>${esc(s.id)}</code> — ${esc(titleOf(s, lang))}</h1>`,
    `<p class="meta">${esc(t(lang, 'html.grade.meta', { seed: learner.seed, reference: reference.runner, learner: learner.runner }))}</p>`,
    `<p class="verdict ${learner.passed ? 'pass' : 'fail'}">${esc(t(lang, 'html.grade.verdict', { verdict: verdictWord(lang, learner), figures: figures(lang, learner), reference: figures(lang, reference) }))}</p>`,
    divergence === null
      ? `<p class="verdict pass">${esc(t(lang, 'html.grade.follows'))}</p>`
      : `<p class="diverge">${esc(divergence.text)}</p>`,
    `<p class="help">${say(lang, 'html.help.grade', {}, { keys: '<kbd>←</kbd> <kbd>→</kbd>', position: '<span data-position>1</span>' })}</p>`,
    '</header>',
    '<main class="run grade-main">',
    `<div class="lanes lane-head" role="presentation"><div>${esc(t(lang, 'html.col.step'))}</div><div class="ref">${esc(t(lang, 'html.grade.reference'))}</div><div class="mine">${esc(t(lang, 'html.grade.yours'))}</div></div>`,
    '<ol class="moments">',
    ...before,
    '</ol>',
    after.length > 0 ? `<details><summary>${esc(t(lang, 'html.grade.rest', { n: after.length }))}</summary><ol class="moments">${after.join('\n')}</ol></details>` : '',
    checksHtml(lang, learner, false, t(lang, 'html.grade.checks', { verdict: verdictWord(lang, learner) })),
    '</main>',
  ].join('\n');
  return page(lang, t(lang, 'html.grade.title', { id: s.id }), body, { bodyClass: 'grade' });
}
