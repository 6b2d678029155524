/**
 * A class's grade as it goes (src/grade/reporters/terminal.ts, renderProgress*): the first line, said at once,
 * then how many are graded and about how long the rest will take — a live line on a terminal, a prefix on each
 * submission's line in a log.
 */
export const progress = {
  'progress.start.one': 'grading {n} submission, {lanes} at a time',
  'progress.start.other': 'grading {n} submissions, {lanes} at a time',
  'progress.done': '{done}/{total} graded',
  'progress.left': 'about {time} left',
  'progress.seconds': '{n} s',
  'progress.minutes': '{n} min',
} as const;
