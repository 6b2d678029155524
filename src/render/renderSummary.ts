/** The table at the end of `faultlab run`: one line per scenario with its figures and verdict. */
import { totalCalls } from '../check/durabilityFigures.js';
import { isBrokenScenario } from '../check/scenarioIntegrity.js';
import type { RunResult } from '../check/RunResult.js';
import { pad, padStart, shownStock } from './format.js';
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
  firstProblem?: string;
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

export function renderSummary(rows: SummaryRow[], style: Style, footer: string): string {
  const { c } = style;
  const idWidth = Math.max(27, ...rows.map((r) => r.id.length + 2));
  const lines = [c.bold(`  ${padStart('#', 2)}  ${pad('scenario', idWidth)}${pad('status', 17)}${padStart('calls', 5)}${padStart('ledger', 8)}  ${pad('stock', 12)}result`)];
  for (const row of rows) {
    const verdict = row.passed ? c.green('✔ pass') : row.broken ? c.red('✘ broken scenario') : c.red('✘ fail');
    lines.push(
      `  ${padStart(row.order !== undefined ? String(row.order) : '', 2)}  ${pad(row.id, idWidth)}${pad(row.status, 17)}${padStart(row.calls, 5)}${padStart(row.ledger, 8)}  ${pad(row.stock, 12)}${verdict}`,
    );
    if (!row.passed && row.firstProblem) lines.push(c.red(`      ${row.firstProblem}`));
  }
  const passed = rows.filter((r) => r.passed).length;
  const failed = rows.length - passed;
  const tally = `${passed} passed, ${failed} failed`;
  lines.push('', `  ${failed === 0 ? c.green.bold(tally) : c.red.bold(tally)} ${c.dim(footer)}`);
  return lines.join('\n') + '\n';
}
