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
import { postgres } from './postgres.js';
import { workers } from './workers.js';

/** The parts together. Object.assign, not a spread: V8 builds a spread of ~1000 keys one hidden class at a time
 * (about 7 ms of every start-up), Object.assign in a fraction of that; the type is the same. */
export const en: typeof cli & typeof help & typeof scenario & typeof target & typeof tempDir & typeof config & typeof summary & typeof trace & typeof pillar & typeof check & typeof lab & typeof html & typeof explore & typeof mutant & typeof grade & typeof gradeReport & typeof hint & typeof classroom & typeof postgres & typeof workers = Object.assign({}, cli, help, scenario, target, tempDir, config, summary, trace, pillar, check, lab, html, explore, mutant, grade, gradeReport, hint, classroom, postgres, workers);

export type MessageKey = keyof typeof en;
