/** The table at the end of `faultlab run`: one line per scenario with its figures and verdict. */
import { totalCalls } from '../check/durabilityFigures.js';
import { isBrokenScenario } from '../check/scenarioIntegrity.js';
import type { RunResult } from '../check/RunResult.js';
import { displayWidth, flow, pad, padStart, shownStock } from './format.js';
import { said, t, type Lang } from './words/index.js';
import type { Said } from '../core/message.js';
import type { Style } from './style.js';

export interface SummaryRow {
  id: string;
  order?: number;
  status: string;
  calls: string;
  ledger: string;
  stock: string;
  passed: boolean;
  broken: boolean;
  /** The first failed check's message, for a failing row. */
  firstProblem?: Said;
}

export function summaryRow(run: RunResult): SummaryRow {
  const stock = shownStock(run).map((s) => `${s.item} ${s.available ?? '-'}`).join(', ');
  // The most telling failure first: an exception, then a broken rule, then the figures it led to.
  const rank = { runner: 0, invariant: 1, scenario: 2, expectation: 3 } as const;
  const failed = run.checks.filter((c) => !c.passed).sort((a, b) => rank[a.kind] - rank[b.kind])[0];
  return {
    id: run.scenario.id,
    ...(run.scenario.order !== undefined ? { order: run.scenario.order } : {}),
    status: run.state?.status ?? 'none',
    calls: String(totalCalls(run) ?? '-'),
    ledger: String(run.db.ledger.length),
    stock,
    passed: run.passed,
    broken: isBrokenScenario(run),
    ...(failed ? { firstProblem: failed.message } : {}),
  };
}

/**
 * One line per scenario, columns as wide as their widest value, so the 17 fit 80 columns; a failing row's
 * first problem is wrapped under it to the width.
 */
export function renderSummary(lang: Lang, rows: SummaryRow[], style: Style, footer: string, width = 80): string {
  const { c } = style;
  const head = { id: t(lang, 'summary.head.scenario'), status: t(lang, 'summary.head.status'), calls: t(lang, 'summary.head.calls'), ledger: t(lang, 'summary.head.ledger'), stock: t(lang, 'summary.head.stock') };
  const idWidth = Math.max(displayWidth(head.id), ...rows.map((r) => displayWidth(r.id)));
  const statusWidth = Math.max(displayWidth(head.status), ...rows.map((r) => displayWidth(r.status)));
  const stockWidth = Math.max(displayWidth(head.stock), ...rows.map((r) => displayWidth(r.stock)));
  const callsWidth = Math.max(5, displayWidth(head.calls));
  const ledgerWidth = Math.max(6, displayWidth(head.ledger));
  const cells = (n: string, id: string, status: string, calls: string, ledger: string, stock: string, result: string) =>
    `  ${padStart(n, 2)} ${pad(id, idWidth)} ${pad(status, statusWidth)} ${padStart(calls, callsWidth)} ${padStart(ledger, ledgerWidth)}  ${pad(stock, stockWidth)}  ${result}`;
  const lines = [c.bold(cells('#', head.id, head.status, head.calls, head.ledger, head.stock, t(lang, 'summary.head.result')).trimEnd())];
  for (const row of rows) {
    const verdict = row.passed ? c.green(t(lang, 'summary.pass')) : row.broken ? c.red(t(lang, 'summary.broken')) : c.red(t(lang, 'summary.fail'));
    lines.push(cells(row.order !== undefined ? String(row.order) : '', row.id, row.status, row.calls, row.ledger, row.stock, verdict));
    if (!row.passed && row.firstProblem) lines.push(...flow([[said(lang, row.firstProblem), (x: string) => c.red(x)]], { width, indent: '      ' }));
  }
  const passed = rows.filter((r) => r.passed).length;
  const failed = rows.length - passed;
  const tally = t(lang, 'summary.tally', { passed, failed });
  lines.push('', ...flow([[failed === 0 ? c.green.bold(tally) : c.red.bold(tally), null], [footer, (x: string) => c.dim(x)]], { width, indent: '  ', hang: '    ' }));
  return lines.join('\n') + '\n';
}
