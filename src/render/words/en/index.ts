/**
 * The English catalogue: every human-facing message of faultlab, by key, one file per area. It is the
 * reference: a key exists because English says it, and every other language must say the same key with the
 * same placeholders (`{name}`) — the type of `zh` and test/render/words.test.ts hold both.
 */
import { check } from './check.js';
import { cli } from './cli.js';
import { config } from './config.js';
import { help } from './help.js';
import { scenario } from './scenario.js';
import { summary } from './summary.js';
import { target } from './target.js';
import { tempDir } from './tempDir.js';
import { explore } from './explore.js';
import { html } from './html.js';
import { lab } from './lab.js';
import { mutant } from './mutant.js';
import { pillar } from './pillar.js';
import { trace } from './trace.js';
import { grade } from './grade.js';
import { gradeReport } from './gradeReport.js';
import { hint } from './hint.js';
import { classroom } from './classroom.js';
import { box } from './box.js';
import { postgres } from './postgres.js';
import { workers } from './workers.js';
import { limits } from './limits.js';
import { torture } from './torture.js';
import { progress } from './progress.js';
import { refusal } from './refusal.js';
import { everyStep } from './everyStep.js';
import { race } from './race.js';

/** The parts, one per line (a branch adds a line, not a conflict). */
const PARTS = [
  cli,
  help,
  scenario,
  target,
  tempDir,
  config,
  summary,
  trace,
  pillar,
  check,
  lab,
  html,
  explore,
  mutant,
  grade,
  gradeReport,
  hint,
  classroom,
  box,
  postgres,
  workers,
  limits,
  torture,
  progress,
  refusal,
  everyStep,
  race,
] as const;

/** Every part's keys together: the type Object.assign cannot give for more than four sources. */
export type Joined<T extends readonly unknown[]> = T extends readonly [infer First, ...infer Rest] ? First & Joined<Rest> : unknown;

/** The parts together. Object.assign, not an object spread: V8 builds a spread of ~1000 keys one hidden class at a
 * time (about 7 ms of every start-up), Object.assign in a fraction of that. */
export const en: Joined<typeof PARTS> = Object.assign({}, ...PARTS) as Joined<typeof PARTS>;

export type MessageKey = keyof typeof en;
