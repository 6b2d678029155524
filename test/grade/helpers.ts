/**
 * Set-up shared by the grader's tests: fixture paths, graded submissions (each graded once per test file), the
 * CLI in-process. Tests grade pinned copies — of the stub as shipped and of a solution — never the live
 * src/runner/LearnerRunner.ts, so `npm test` stays green whatever a learner has written there.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { INVARIANTS } from '../../src/check/invariants.js';
import { tempFolder } from '../tempFolder.js';
import { main } from '../../src/cli/main.js';
import { gradeSubmission as gradeRaw, ReferenceRuns, type GradeOptions } from '../../src/grade/gradeSubmission.js';
import { divergenceText } from '../../src/grade/divergence.js';
import type { ScenarioGrade, SubmissionGrade } from '../../src/grade/types.js';
import { printedText } from '../../src/render/printed.js';
import { said, word, type Lang } from '../../src/render/words/index.js';
import { loadScenarios } from '../../src/scenario/load.js';

/** A scenario's grade with its words worded (a grade is data: its reporters word it), for assertions on what a learner reads. */
export interface WordedGrade extends Omit<ScenarioGrade, 'problem' | 'summary' | 'wrongFigures' | 'figures' | 'divergence' | 'output'> {
  problem: (Omit<NonNullable<ScenarioGrade['problem']>, 'title' | 'message' | 'thrown'> & { title: string; message: string; thrown: string | undefined }) | null;
  summary: string;
  wrongFigures: string[];
  figures: string | null;
  divergence: { step: number; seq?: number; text: string } | null;
  output: string;
}

export interface WordedSubmission extends Omit<SubmissionGrade, 'scenarios' | 'explored' | 'loadError'> {
  scenarios: WordedGrade[];
  explored: WordedGrade[];
  loadError: { name: string; message: string; stack?: string } | null;
}

export function worded(g: ScenarioGrade, lang: Lang = 'en'): WordedGrade {
  const p = g.problem;
  const d = g.divergence;
  return {
    ...g,
    problem: p === null ? null : { ...p, title: said(lang, p.title), message: word(lang, p.message), thrown: p.thrown === undefined ? undefined : said(lang, p.thrown) },
    summary: word(lang, g.summary),
    wrongFigures: g.wrongFigures.map((f) => word(lang, f)),
    figures: g.figures === null ? null : said(lang, g.figures),
    divergence: d === null ? null : { step: d.step, ...(d.seq !== undefined ? { seq: d.seq } : {}), text: divergenceText(lang, d) },
    output: printedText(lang, g.output),
  };
}

/** A submission's grade with every word worded, in English unless asked. */
export function wordedSubmission(s: SubmissionGrade, lang: Lang = 'en'): WordedSubmission {
  return {
    ...s,
    scenarios: s.scenarios.map((g) => worded(g, lang)),
    explored: s.explored.map((g) => worded(g, lang)),
    loadError: s.loadError === null ? null : { ...s.loadError, message: said(lang, s.loadError.message) },
  };
}

/** The grader, its grade worded in English: what the tests read. */
export async function gradeSubmission(file: string, options: GradeOptions): Promise<WordedSubmission> {
  return wordedSubmission(await gradeRaw(file, options));
}

export const ROOT = join(import.meta.dirname, '..', '..');
export const LEARNERS = join(ROOT, 'test', 'fixtures', 'learners');
/** The older fixtures: whole runner files importing the package by relative path. */
export const learner = (name: string) => join(LEARNERS, `${name}.ts`);
/** src/runner/LearnerRunner.ts as shipped, and as solved: copies, pinned. */
export const STUB = join(LEARNERS, 'stub', 'LearnerRunner.ts');
export const SOLUTION = join(LEARNERS, 'solution', 'LearnerRunner.ts');
/** A learner's LearnerRunner.ts with one classic mistake (test/fixtures/learners/mistakes/<name>/). */
export const mistake = (name: string) => join(LEARNERS, 'mistakes', name, 'LearnerRunner.ts');
/** A submission of the class fixture that is not one of the mistakes (test/fixtures/learners/class/<name>/). */
export const classmate = (name: string) => join(LEARNERS, 'class', name, 'LearnerRunner.ts');

export const SEVENTEEN = loadScenarios();
const references = new ReferenceRuns();
const graded = new Map<string, Promise<SubmissionGrade>>();

/** A fixture graded on all 17 scenarios as written (no exploring: that has its own tests), once per test file. */
export function gradeAll(file: string): Promise<SubmissionGrade> {
  let grade = graded.get(file);
  if (grade === undefined) {
    grade = gradeRaw(file, { scenarios: SEVENTEEN, cwd: ROOT, references, explore: false });
    graded.set(file, grade);
  }
  return grade;
}

export const tmp = (prefix: string): string => tempFolder(prefix);

/** A fixture graded on a few scenarios, as written and explored; replay files go to a temporary folder. */
export function gradeExplored(file: string, ids: string[], extra: { timeoutMs?: number } = {}): Promise<SubmissionGrade> {
  return gradeRaw(file, { scenarios: loadScenarios(ids), cwd: ROOT, references, replayDir: tmp('replays'), ...extra });
}

/** The same two, worded in English. */
export const wordedAll = async (file: string): Promise<WordedSubmission> => wordedSubmission(await gradeAll(file));
export const wordedExplored = async (file: string, ids: string[], extra: { timeoutMs?: number } = {}): Promise<WordedSubmission> =>
  wordedSubmission(await gradeExplored(file, ids, extra));

/**
 * A teacher's folder, as learners hand their work in: `<dir>/<name>/LearnerRunner.ts`, each an unchanged copy,
 * far from the package (a temporary folder).
 */
export function submissionsFolder(members: Record<string, string>): string {
  const dir = join(tmp('class'), 'submissions');
  for (const [name, file] of Object.entries(members)) {
    mkdirSync(join(dir, name), { recursive: true });
    cpSync(file, join(dir, name, 'LearnerRunner.ts'));
  }
  return dir;
}

export const failing = (grade: SubmissionGrade | WordedSubmission) => grade.scenarios.filter((s) => s.status !== 'pass').map((s) => s.id);

export interface CliOutcome {
  exit: number;
  stdout: string;
  stderr: string;
}

/** `faultlab ARGS` in-process, colour off, from the repository root (or `cwd`). */
export async function faultlab(argv: string[], cwd = ROOT): Promise<CliOutcome> {
  let stdout = '';
  let stderr = '';
  const exit = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { NO_COLOR: '1' },
    isTTY: false,
    cwd,
  });
  return { exit, stdout, stderr };
}

/** How the grader names invariant n (`inv3 every attempt of …`), from the core's own table. */
export const invariantTitle = (n: number) => `inv${n} ${word('en', INVARIANTS[n - 1]!.title)}`;
