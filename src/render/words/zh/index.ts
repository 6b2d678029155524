/**
 * 中文目录：与英文目录一一对应，同一个键、同样的占位符（`{name}`）。术语见 GLOSSARY.md，
 * 尽量沿用本章原文的说法（意图、尝试、效果、账本、回执、指纹……）。
 */
import type { Joined, MessageKey } from '../en/index.js';
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

/** The parts, one per line, in the English catalogue's order. */
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

/** Every key of the English catalogue, and no other: a missing or extra key is a type error. Object.assign, not an
 * object spread, for the start-up's sake (see ../en/index.ts). */
export const zh: { readonly [K in MessageKey]: string } = Object.assign({}, ...PARTS) as Joined<typeof PARTS>;
