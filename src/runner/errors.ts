/** Raised by the exercise stub until the learner writes `LearnerRunner.step`. */
export class NotImplementedError extends Error {
  override readonly name = 'NotImplementedError';
  readonly what: string;

  constructor(what: string) {
    super(`not implemented yet: ${what}`);
    this.what = what;
  }
}
