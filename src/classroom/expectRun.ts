/**
 * `expectRun(run).toEndWith('succeeded').toHaveCalls(5).toHaveLedgerRows(1).toHaveStock('camera', 2).toHoldInvariants()`:
 * chainable assertions on a finished run for a teacher's own tests. A failure throws a RunAssertionError that
 * reads like the grader: what was expected, what happened, the run's first problem (an exception, or the broken
 * invariant and why), where it first left the reference's path, the command to replay it, and the lesson —
 * in the language asked for (`expectRun(run, { lang: 'zh' })` for a class that reads Chinese; English by default).
 */
import { INVARIANTS } from '../check/invariants.js';
import { checkTitle } from '../grade/diagnose.js';
import { problemLine } from '../grade/explain.js';
import { gradeRun } from '../grade/gradeRun.js';
import { displayPath } from '../grade/replay.js';
import type { RunStatus } from '../scenario/types.js';
import type { RunResult } from '../check/RunResult.js';
import { originOf } from './runScenario.js';
import { t, word, type Lang } from '../render/words/index.js';
import { divergenceText } from '../grade/divergence.js';

export class RunAssertionError extends Error {
  override readonly name = 'RunAssertionError';
  readonly expected: unknown;
  readonly actual: unknown;

  constructor(message: string, expected: unknown, actual: unknown) {
    super(message);
    this.expected = expected;
    this.actual = actual;
  }
}

const INVARIANT_IDS: readonly string[] = INVARIANTS.map((inv) => inv.id);

/** `inv3` or `inv3_same_key_same_args` → the full id. */
function invariantId(lang: Lang, name: string): string {
  const id = INVARIANT_IDS.find((full) => full === name || full.startsWith(`${name}_`));
  if (id === undefined) throw new Error(t(lang, 'classroom.noInvariant', { name: JSON.stringify(name), known: INVARIANT_IDS.join(', ') }));
  return id;
}

/** How an expectation speaks: the language of its messages (default en). */
export interface ExpectOptions {
  lang?: Lang;
}

export class RunExpectation {
  readonly #run: RunResult;
  readonly #lang: Lang;

  constructor(run: RunResult, options: ExpectOptions = {}) {
    this.#run = run;
    this.#lang = options.lang ?? 'en';
  }

  /** The run's terminal status: succeeded, retry_exhausted, tool_error, policy_error, budget_exhausted, gave_up. */
  toEndWith(status: RunStatus): this {
    const lang = this.#lang;
    const actual = this.#run.state?.status ?? null;
    return this.#check(actual === status, t(lang, 'classroom.endWith', { status, actual: actual ?? t(lang, 'classroom.noState') }), status, actual);
  }

  /** Calls made: every attempt is one call, retries included. */
  toHaveCalls(calls: number): this {
    const lang = this.#lang;
    const actual = this.#run.state?.calls ?? null;
    return this.#check(actual === calls, t(lang, 'classroom.calls', { calls, actual: actual ?? t(lang, 'classroom.noCalls') }), calls, actual);
  }

  /** Rows in the tool's ledger at the end, all tasks: one per effect. */
  toHaveLedgerRows(rows: number): this {
    const lang = this.#lang;
    const actual = this.#run.db.ledger.length;
    return this.#check(actual === rows, t(lang, 'classroom.ledgerRows', { rows, actual }), rows, actual);
  }

  /** What is left of an item on the shelf. */
  toHaveStock(item: string, available: number): this {
    const lang = this.#lang;
    const row = this.#run.db.items.find((r) => r.item_id === item);
    const actual = row?.available ?? null;
    const got = row === undefined ? t(lang, 'classroom.stock.noItem', { item: JSON.stringify(item) }) : t(lang, 'classroom.stock.left', { n: String(actual) });
    return this.#check(actual === available, t(lang, 'classroom.stock', { available, item, got }), available, actual);
  }

  /** The action still pending at the end (kept when its outcome is unknown), or null for none. */
  toHavePending(name: string | null): this {
    const lang = this.#lang;
    const actual = this.#run.state?.pending?.name ?? null;
    const say = (n: string | null) => (n === null ? t(lang, 'classroom.pending.none') : t(lang, 'classroom.pending.some', { name: n }));
    return this.#check(actual === name, t(lang, 'classroom.pending', { expected: say(name), actual: say(actual) }), name, actual);
  }

  /** Every invariant of docs/spec.md §7 (or only those named: `'inv1'`, `'inv3_same_key_same_args'`…) held. */
  toHoldInvariants(...only: string[]): this {
    const lang = this.#lang;
    const wanted = only.length > 0 ? only.map((name) => invariantId(lang, name)) : INVARIANT_IDS;
    const broken = this.#run.checks.filter((c) => c.kind === 'invariant' && wanted.includes(c.id) && !c.passed);
    const lines = broken.map((c) => t(lang, 'classroom.failedCheck', { title: checkTitle(c), message: c.message }));
    const which = only.length > 0 ? t(lang, 'classroom.invariants.some', { names: only.join(', ') }) : t(lang, 'classroom.invariants.every');
    return this.#check(broken.length === 0, t(lang, 'classroom.invariants', { which, n: broken.length, lines: lines.join('\n') }), [], broken.map((c) => c.id));
  }

  /** Every check of the scenario: its faults fired, its figures, every invariant. */
  toPass(): this {
    const lang = this.#lang;
    const failed = this.#run.checks.filter((c) => !c.passed);
    const lines = failed.map((c) => t(lang, 'classroom.failedCheck', { title: checkTitle(c), message: c.message }));
    return this.#check(failed.length === 0, t(lang, 'classroom.pass', { n: failed.length, lines: lines.join('\n') }), [], failed.map((c) => c.id));
  }

  #check(ok: boolean, headline: string, expected: unknown, actual: unknown): this {
    if (!ok) throw new RunAssertionError(this.#explain(headline), expected, actual);
    return this;
  }

  /** The headline, then what the grader would say about this run. */
  #explain(headline: string): string {
    const lang = this.#lang;
    const run = this.#run;
    const cwd = process.cwd();
    const { runnerFile } = originOf(run);
    const { reference } = originOf(run);
    const grade = gradeRun(run, reference ?? null, 0, {
      file: runnerFile,
      runnerArg: runnerFile !== undefined ? displayPath(runnerFile, cwd) : t(lang, 'classroom.runnerArg', { runner: run.runner }),
      seed: run.seed,
      cwd,
      lang,
    });
    const lines = [t(lang, 'classroom.headline', { scenario: run.scenario.id, runner: run.runner, headline })];
    if (grade.problem !== null) lines.push(t(lang, 'classroom.firstProblem', { problem: problemLine(lang, grade.problem) }));
    if (grade.wrongFigures.length > 0) lines.push(t(lang, 'gradeReport.explain.figures', { figures: grade.wrongFigures.map((f) => word(lang, f)).join(' · ') }));
    if (grade.divergence !== null) lines.push(t(lang, 'gradeReport.explain.divergence', { text: divergenceText(lang, grade.divergence) }));
    lines.push(t(lang, 'gradeReport.explain.replay', { command: grade.replay }), t(lang, 'gradeReport.explain.lesson', { lesson: grade.lesson }));
    return lines.join('\n');
  }
}

/** Assertions on a finished run (from runScenario, or from simulate). Each returns the expectation, to chain. */
export function expectRun(run: RunResult, options: ExpectOptions = {}): RunExpectation {
  return new RunExpectation(run, options);
}
