/** The messages of src/target: a `--runner` that names no mutant and no file. The catalogues (src/render/words) word them. */
export const TARGET_CODES = ['target.noSuchMutant', 'target.noSuchMutantNamed', 'target.noSuchRunnerFile'] as const;

export type TargetCode = (typeof TARGET_CODES)[number];
