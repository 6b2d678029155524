/**
 * Which files are submissions. A file named on the command line is one. A folder holds one per runner
 * file directly inside it (`alice.ts`, `bob.ts`), and one per sub-folder that has a LearnerRunner file
 * (`alice/LearnerRunner.ts`, which may import helpers next to it). Declaration files, tests and names
 * starting with `_` or `.` are not submissions.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { msg, type Message } from '../render/words/index.js';

const RUNNER_FILE = /^[^_.].*(?<!\.d)(?<!\.test)\.(ts|mts|js|mjs)$/;
const LEARNER_NAMES = ['LearnerRunner.ts', 'LearnerRunner.mts', 'LearnerRunner.js', 'LearnerRunner.mjs'];

/** `submissions/alice/LearnerRunner.ts` → `alice`; `submissions/bob.ts` → `bob`. */
export function submissionName(file: string): string {
  const stem = basename(file).replace(/\.[cm]?[jt]s$/, '');
  return stem === 'LearnerRunner' ? basename(dirname(file)) : stem;
}

/** Names for a list of submissions, each unique (a second `alice` becomes `alice-2`). */
export function submissionNames(files: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return files.map((file) => {
    const name = submissionName(file);
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name}-${n}`;
  });
}

export interface FoundSubmissions {
  files: string[];
  /** Targets that are neither a file nor a folder with submissions in it. */
  problems: Message[];
}

export function findSubmissions(targets: readonly string[], cwd: string): FoundSubmissions {
  const files: string[] = [];
  const problems: Message[] = [];
  for (const target of targets) {
    const path = resolve(cwd, target);
    if (!existsSync(path)) {
      problems.push(msg('grade.find.noSuchPath', { target }));
      continue;
    }
    if (!statSync(path).isDirectory()) {
      files.push(path);
      continue;
    }
    const found: string[] = [];
    for (const name of readdirSync(path).sort()) {
      const entry = join(path, name);
      if (statSync(entry).isDirectory()) {
        if (name.startsWith('.') || name.startsWith('_') || name === 'node_modules') continue;
        const learner = LEARNER_NAMES.map((n) => join(entry, n)).find((f) => existsSync(f));
        if (learner !== undefined) found.push(learner);
      } else if (RUNNER_FILE.test(name)) {
        found.push(entry);
      }
    }
    if (found.length === 0) problems.push(msg('grade.find.emptyFolder', { target }));
    files.push(...found);
  }
  return { files, problems };
}
