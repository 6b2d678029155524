/**
 * `faultlab torture` in words (docs/spec.md §19): the progress line while it runs, the table it ends with, and the
 * `--json` document — the figures as data, each check's first breach as a message in words and as data.
 */
import type { Style } from './style.js';
import { displayWidth, pad, padStart } from './format.js';
import { t, word, type Lang } from './words/index.js';
import { messageJson, type MessageJson } from './renderJson.js';
import { TORTURE_CHECKS, type FileCheck } from '../torture/fileChecks.js';
import { tortureHeld, type TortureProgress, type TortureReport } from '../torture/report.js';

const count = (n: number) => n.toLocaleString('en-US');
const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** One line of progress, for stderr. */
export function renderTortureProgress(lang: Lang, p: TortureProgress): string {
  return t(lang, 'torture.progress', {
    kills: count(p.kills),
    plannedKills: count(p.plannedKills),
    pauses: count(p.pauses),
    plannedPauses: count(p.plannedPauses),
    finished: count(p.finished),
    stale: count(p.staleRefused),
    seconds: seconds(p.elapsedMs),
  });
}

/** The run as it starts: what it will do, from which seed. */
export function renderTortureStart(lang: Lang, r: Pick<TortureReport, 'db' | 'joined' | 'workers' | 'seed' | 'leaseMs' | 'toolMs' | 'runner' | 'plan'>): string {
  const head = { workers: r.workers, seed: r.seed, lease: r.leaseMs, tool: r.toolMs, runner: r.runner };
  return [
    r.db === 'sqlite' ? t(lang, 'torture.head', head) : t(lang, 'torture.headPostgres', { ...head, db: r.db }),
    ...(r.joined !== null ? [t(lang, 'torture.joined', { schema: r.joined })] : []),
    t(lang, 'torture.plan', { digest: r.plan.digest, kills: count(r.plan.kills), pauses: count(r.plan.pauses) }),
  ].join('\n');
}

/** The table the run ends with: the figures, every check, and what the run proves and what it does not. */
export function renderTorture(lang: Lang, r: TortureReport, { c }: Style): string {
  const finished = r.tasks.done + r.tasks.failed;
  const rows: Array<[string, string, string]> = [
    [t(lang, 'torture.row.kills'), count(r.kills), t(lang, r.db === 'sqlite' ? 'torture.note.kills' : 'torture.note.killsPostgres', { checks: count(r.checksMade) })],
    [t(lang, 'torture.row.pauses'), count(r.pauses), t(lang, 'torture.note.pauses')],
    [t(lang, 'torture.row.tasks'), count(r.enqueued), t(lang, 'torture.note.tasks', { done: count(r.tasks.done), failed: count(r.tasks.failed), left: count(r.tasks.queued + r.tasks.running) })],
    [t(lang, 'torture.row.effects'), count(r.tasks.effects), t(lang, 'torture.note.effects', { receipts: count(r.tasks.receipts) })],
    ...(r.backendsTerminated > 0 ? [[t(lang, 'torture.row.terminated'), count(r.backendsTerminated), t(lang, 'torture.note.terminated')] as [string, string, string]] : []),
    [t(lang, 'torture.row.grants'), count(r.grants), t(lang, 'torture.note.grants')],
    [t(lang, 'torture.row.stale'), count(r.staleRefused), t(lang, 'torture.note.counted')],
    // On PostgreSQL a writer waits on the lock: nothing is ever BUSY there.
    ...(r.db === 'sqlite' ? [[t(lang, 'torture.row.busy'), count(r.busyRetries), t(lang, 'torture.note.busy')] as [string, string, string]] : []),
    [t(lang, 'torture.row.throughput'), count(r.tasksPerSecond), t(lang, 'torture.note.throughput', { finished: count(finished), seconds: seconds(r.elapsedMs) })],
  ];
  const labelWidth = Math.max(...rows.map(([label]) => displayWidth(label))) + 2;
  const figureWidth = Math.max(...rows.map(([, figure]) => figure.length)) + 2;
  const lines = [
    renderTortureStart(lang, r),
    '',
    ...rows.map(([label, figure, note]) => `  ${pad(label, labelWidth)}${padStart(figure, figureWidth - 2)}  ${c.dim(note)}`),
    '',
    c.bold(t(lang, r.db === 'sqlite' ? 'torture.checks' : 'torture.checksPostgres')),
    ...r.checks.map((check) => checkLine(lang, check, c)),
  ];
  if (r.drained === false) lines.push(c.red(t(lang, 'torture.notDrained')));
  if (r.joinedEnded) lines.push(t(lang, 'torture.joinedEnded'));
  if (r.brokenAfterKill !== null) lines.push(c.red(t(lang, 'torture.stoppedAt', { kill: count(r.brokenAfterKill) })));
  for (const error of r.workerErrors) lines.push(c.red(t(lang, 'torture.workerError', { worker: error.worker, exit: error.exit, said: typeof error.said === 'string' ? error.said : word(lang, error.said) })));
  lines.push('', tortureHeld(r) ? c.green(t(lang, 'torture.held')) : c.red(t(lang, 'torture.broken')), c.dim(t(lang, r.db === 'sqlite' ? 'torture.powerLoss' : 'torture.powerLossPostgres')));
  return lines.join('\n');
}

function checkLine(lang: Lang, check: FileCheck, c: Style['c']): string {
  const title = word(lang, TORTURE_CHECKS.find((known) => known.id === check.id)!.title);
  if (check.passed) return `  ${c.green('✓')} ${title}`;
  return `  ${c.red('✗')} ${t(lang, 'torture.checkBroken', { title, found: t(lang, 'torture.found', { n: count(check.found) }), first: word(lang, check.first!) })}`;
}

export interface TortureJson extends Omit<TortureReport, 'checks' | 'workerErrors'> {
  held: boolean;
  checks: Array<{ id: string; passed: boolean; found: number; first: MessageJson | null }>;
  workerErrors: Array<{ worker: string; exit: string; said: string | MessageJson }>;
}

/** `--json`: the report as data; a message in the command's language and as its code and parameters. */
export function tortureJson(lang: Lang, r: TortureReport): TortureJson {
  return {
    ...r,
    held: tortureHeld(r),
    checks: r.checks.map((check) => ({ id: check.id, passed: check.passed, found: check.found, first: check.first === null ? null : messageJson(lang, check.first) })),
    workerErrors: r.workerErrors.map((error) => ({ ...error, said: typeof error.said === 'string' ? error.said : messageJson(lang, error.said) })),
  };
}
