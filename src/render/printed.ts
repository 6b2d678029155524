/** What a learner's code printed (src/box: Printed), as it is shown: its text, and a line saying when the rest was cut. */
import type { Printed } from '../box/captureOutput.js';
import { t, type Lang } from './words/index.js';

export function printedText(lang: Lang, printed: Printed): string {
  return printed.cut ? `${printed.text}\n${t(lang, 'grade.process.outputCut')}\n` : printed.text;
}
