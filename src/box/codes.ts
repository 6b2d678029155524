/**
 * The messages of the box (src/box): how a learner's process was lost, a channel it broke, output cut at its
 * limit, what its code threw that is no error, a value it handed the harness that the harness cannot take. The
 * catalogues (src/render/words) word them.
 */
export const BOX_CODES = [
  'box.where.step',
  'box.where.between',
  'box.gone.killed',
  'box.gone.protocol',
  'box.gone.signal',
  'box.gone.exited',
  'grade.process.gone',
  'grade.process.notReady',
  'grade.process.notAnObject',
  'grade.process.unreadable',
  'grade.process.unexpected',
  'box.memo.diverged',
  'grade.process.unanswered',
  'grade.process.frameTooLong',
  'grade.process.frameNotJson',
  'grade.process.notAnError',
  'cli.runner.calledExit',
  'box.value.notObject',
  'box.value.wrong',
  'box.value.aString',
  'box.value.aCount',
  'box.value.nullOrObject',
  'box.value.tooDeep',
  'box.value.stepReturned',
  'box.value.call',
  'box.value.notSendable',
  'box.worker.execOnly',
  'box.worker.sqlText',
  'box.worker.writesOutsideTasks',
  'box.worker.claimReturned',
  'box.worker.claimNotGranted',
  'box.worker.finishReturned',
  'box.worker.sweepReturned',
  'box.worker.openTransaction',
  'box.worker.noFence',
  'box.worker.notForScenario',
  'box.worker.sqlParams',
] as const;

export type BoxCode = (typeof BOX_CODES)[number];
