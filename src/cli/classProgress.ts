/**
 * What a teacher sees while a class is graded: a first line at once (how many submissions, how many at a time),
 * then, as each submission finishes, how many are graded and about how long the rest will take. On a terminal
 * that is one live line, rewritten in place under the submissions' own lines; in a log (stdout not a terminal)
 * it is one line per finished submission — its own line with the count in front, or the count alone under
 * --summary. The wall clock is read here, in the CLI; the estimate is a function of the times it is given
 * (src/grade/progress.ts).
 */
import { timeLeftMs } from '../grade/progress.js';
import { renderProgress, renderProgressStart, renderSubmissionLine } from '../grade/reporters/terminal.js';
import type { SubmissionGrade } from '../grade/types.js';
import { displayWidth } from '../render/format.js';
import type { Style } from '../render/style.js';
import type { Lang } from '../render/words/index.js';
import type { Io } from './io.js';

/** Erase the terminal's current line and go back to its start. */
const CLEAR_LINE = '\r\x1b[2K';

export class ClassProgress {
  private readonly startedAt = new Map<number, number>();
  private readonly finishedMs: number[] = [];
  private live = '';

  constructor(
    private readonly io: Io,
    private readonly lang: Lang,
    private readonly style: Style,
    private readonly total: number,
    private readonly lanes: number,
    /** --summary: no line of a submission's own, only the count. */
    private readonly summary: boolean,
    private readonly now: () => number,
  ) {}

  /** The first line, at once; on a terminal the live line starts under it. */
  begin(): void {
    this.io.stdout.write(renderProgressStart(this.lang, this.total, this.lanes, this.style));
    if (this.io.isTTY) this.draw(renderProgress(this.lang, 0, this.total, null));
  }

  started(index: number): void {
    this.startedAt.set(index, this.now());
  }

  finished(submission: SubmissionGrade, index: number): void {
    const at = this.now();
    this.finishedMs.push(at - (this.startedAt.get(index) ?? at));
    this.startedAt.delete(index);
    const done = this.finishedMs.length;
    const left = timeLeftMs({ total: this.total, done, lanes: this.lanes, finishedMs: this.finishedMs, runningMs: [...this.startedAt.values()].map((t) => at - t) });
    const progress = renderProgress(this.lang, done, this.total, left);
    const own = this.summary ? '' : renderSubmissionLine(this.lang, submission, this.style);
    if (this.io.isTTY) {
      if (own !== '') this.io.stdout.write(CLEAR_LINE + own);
      this.draw(progress);
    } else {
      this.io.stdout.write(own !== '' ? `  ${this.style.c.dim(`[${progress}]`)}${own.slice(1)}` : `  ${progress}\n`);
    }
  }

  /** The live line goes away once everything is graded: the table follows. */
  end(): void {
    if (this.io.isTTY && this.live !== '') this.io.stdout.write(CLEAR_LINE);
    this.live = '';
  }

  /** The live line, cut to the terminal's width (a line that wrapped could not be rewritten in place). */
  private draw(text: string): void {
    const room = (this.io.columns ?? 80) - 1;
    let line = `  ${text}`;
    while (displayWidth(line) > room && line.length > 0) line = line.slice(0, -1);
    this.live = line;
    this.io.stdout.write(CLEAR_LINE + this.style.c.dim(line));
  }
}
