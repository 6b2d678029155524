/**
 * A RaceRun as text, in the look of a lab's run (../renderLab.ts): the `━━` title rule, the explanation, the
 * head, then every statement as it was sent — numbered, its session, its SQL as PostgreSQL ran it — with what
 * PostgreSQL answered under it (a wait, and later the waiting statement going on), each session's answer where it
 * was given, the tables at the end, what the interleaving broke, the tally of every interleaving, the figures,
 * the checks and the verdict. Colour only from the Style; with a plain Style the same run gives the same text.
 */
import { flow, pad, padStart, wrap } from '../../render/format.js';
import { DEFAULT_WIDTH, rule, type RenderOptions } from '../../render/renderText.js';
import type { Style } from '../../render/style.js';
import { t, type Lang } from '../../render/words/index.js';
import { wordsOf } from '../../scenario/words.js';
import { figureRows, renderEnding } from '../renderLab.js';
import type { Outcome } from '../../postgres/driver.js';
import type { Violation } from './invariants.js';
import { PROTOCOLS, type Answer } from './protocols.js';
import type { RaceRun } from './types.js';

const SQLSTATES = new Set(['40001', '23505', '25P02']);

export function outcomeText(lang: Lang, outcome: Outcome): string | null {
  if (outcome.state === 'waiting') return t(lang, 'race.out.waiting', { blockers: outcome.blockedBy.join(', ') });
  if (outcome.state === 'failed') {
    const code = outcome.code ?? '?';
    return t(lang, 'race.out.failed', { code, meaning: t(lang, SQLSTATES.has(code) ? (`race.sqlstate.${code}` as 'race.sqlstate.40001') : 'race.sqlstate.other') });
  }
  switch (outcome.command) {
    case 'BEGIN':
      return null;
    case 'COMMIT':
      return t(lang, 'race.out.committed');
    case 'ROLLBACK':
      return t(lang, 'race.out.rolledBack');
    case 'SELECT': {
      const row = outcome.rows[0];
      return row === undefined ? t(lang, 'race.out.noRow') : t(lang, 'race.out.row', { values: Object.entries(row).map(([k, v]) => `${k} = ${String(v)}`).join(', ') });
    }
    default: {
      const n = outcome.rowCount ?? 0;
      if (n === 0 && outcome.command === 'INSERT') return t(lang, 'race.out.insertedNone');
      return t(lang, n === 0 ? 'race.out.changed.none' : n === 1 ? 'race.out.changed.one' : 'race.out.changed.other', { command: outcome.command, n });
    }
  }
}

export function answerWords(lang: Lang, answer: Answer): string {
  switch (answer.kind) {
    case 'reserved':
      return t(lang, 'race.answer.reserved', { reservation: answer.reservation });
    case 'duplicate':
      return t(lang, 'race.answer.duplicate', { reservation: answer.reservation });
    case 'claimed':
      return t(lang, 'race.answer.claimed', { task: answer.task });
    case 'error':
      return t(lang, 'race.answer.error', { code: answer.code });
    case 'out_of_stock':
      return t(lang, 'race.answer.out_of_stock');
    case 'nothing_ready':
      return t(lang, 'race.answer.nothing_ready');
  }
}

export function violationWords(lang: Lang, found: readonly Violation[]): string {
  return found
    .map((v) => (v.code === 'wrong_answer' ? t(lang, 'race.violation.wrong_answer', { ...v, answer: answerWords(lang, v.answer) }) : t(lang, `race.violation.${v.code}`, v as unknown as Record<string, string | number>)))
    .join(t(lang, 'race.sep'));
}

export function renderRaceRun(run: RaceRun, style: Style, options: RenderOptions): string {
  const { c } = style;
  const { lang } = options;
  const width = options.width ?? DEFAULT_WIDTH;
  const { title, explain } = wordsOf(run, lang);
  const family = PROTOCOLS[run.protocol].family;
  const out: string[] = [rule(`${options.position ? `${options.position} ` : ''}${run.id} ━ ${title}`, style, width)];
  out.push(c.dim(wrap(explain, width, '  ')));
  const start = family === 'claim' ? t(lang, 'race.start.tasks', { tasks: run.setup.tasks }) : t(lang, 'race.start.stock', { stock: run.setup.stock });
  out.push(wrap(t(lang, 'race.head', { isolation: run.isolation, protocol: run.protocol, start }), width, '  '), '');

  const numberWidth = String(run.events.length).length + 2;
  const lead = ' '.repeat(numberWidth + 5);
  out.push(c.dim(`${pad('', numberWidth + 2)}${t(lang, 'race.col')}`));
  let n = 0;
  const sent: Record<string, string> = {};
  for (const event of run.events) {
    if (event.type === 'statement') {
      n += 1;
      sent[event.session] = event.sql.split(' ')[0]!;
      out.push(...flow([[event.sql, c.bold]], { width, indent: `${padStart(String(n), numberWidth)}  ${event.session}  `, hang: lead }));
      const said = outcomeText(lang, event.outcome);
      if (said !== null) out.push(...flow([[said, event.outcome.state === 'done' ? null : c.yellow]], { width, indent: lead + '  ' }));
    } else if (event.type === 'resumed') {
      out.push(...flow([[t(lang, 'race.resumed', { session: event.session, command: sent[event.session] ?? '', outcome: outcomeText(lang, event.outcome) ?? '' }), c.yellow]], { width, indent: lead }));
    } else {
      out.push(...flow([[t(lang, 'race.answered', { session: event.session, answer: answerWords(lang, event.answer) }), c.cyan]], { width, indent: lead }));
    }
  }

  out.push('');
  const list = (items: readonly string[]) => (items.length === 0 ? t(lang, 'race.none') : items.join(', '));
  const { final } = run;
  const end =
    family === 'claim'
      ? t(lang, 'race.end.claim', { tasks: list(Object.entries(final.tasks).map(([task, by]) => (by === null ? t(lang, 'race.task.ready', { task }) : t(lang, 'race.task.claimed', { task, by })))) })
      : family === 'ledger'
        ? t(lang, 'race.end.ledger', { stock: final.stock, reservations: list(final.reservations), ledger: list(Object.entries(final.ledger).map(([k, v]) => `${k} → ${v}`)) })
        : t(lang, 'race.end.reserve', { stock: final.stock, reservations: list(final.reservations) });
  out.push(wrap(end, width, '  '));
  out.push(...flow([[run.broke.length === 0 ? t(lang, 'race.held') : t(lang, 'race.broke', { what: violationWords(lang, run.broke) }), run.broke.length === 0 ? c.green : c.red]], { width, indent: '  ', hang: '    ' }));
  const { explored } = run;
  const tally =
    explored.first === null
      ? t(lang, 'race.explored.none', { n: explored.interleavings })
      : t(lang, 'race.explored.some', { n: explored.interleavings, broken: explored.broken, schedule: explored.first.schedule.join(' '), what: violationWords(lang, explored.first.violations) });
  out.push(...flow([[tally, null]], { width, indent: '  ', hang: '    ' }));
  if (run.brokenForms.length > 0) {
    out.push(...flow([[t(lang, 'race.brokenForms'), null]], { width, indent: '  ', hang: '    ' }));
    for (const { protocol, explored: form } of run.brokenForms) {
      const said =
        form.first === null
          ? t(lang, 'race.brokenForm.missed', { protocol, n: form.interleavings })
          : t(lang, 'race.brokenForm.caught', { protocol, n: form.interleavings, broken: form.broken, schedule: form.first.schedule.join(' '), what: violationWords(lang, form.first.violations) });
      out.push(...flow([[said, form.first === null ? c.red : null]], { width, indent: '    ', hang: '      ' }));
    }
  }

  return renderEnding(lang, run, figureRows(run.figures), out, style, width);
}
