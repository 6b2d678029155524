import { message, type Message } from '../core/message.js';
import type { RunnerCode } from './codes.js';

/**
 * Raised by the exercise stub until the learner writes `LearnerRunner.step`. Its `message` is English (a stack
 * trace's); `said` is the same as a message the grader words in the grade's language.
 */
export class NotImplementedError extends Error {
  override readonly name = 'NotImplementedError';
  readonly what: string;
  readonly said: Message<RunnerCode>;

  constructor(what: string) {
    super(`not implemented yet: ${what}`);
    this.what = what;
    this.said = message<RunnerCode>('runner.notImplemented', { what });
  }
}
