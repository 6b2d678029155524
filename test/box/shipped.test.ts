/**
 * A submission is the learner's own step, or it is named for what it is: faultlab's ReferenceRunner or one of its
 * mutants handed in as the learner's (re-exported, extended, picked from the package) is found in the module the
 * harness compiles (src/box/compile.ts) — where the box's code cannot hide it. Importing BaseRunner or the errors
 * from the package, as every learner does, is not.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileModule } from '../../src/box/compile.js';
import { tempFolder } from '../tempFolder.js';

const work = tempFolder('shipped');
const SOLUTION = join(import.meta.dirname, '..', 'fixtures', 'learners', 'solution', 'LearnerRunner.ts');

async function shippedIn(name: string, code: string | null): Promise<string | null> {
  const file = code === null ? SOLUTION : join(work, `${name}.ts`);
  if (code !== null) writeFileSync(file, code);
  return (await compileModule(file, join(work, `${name}.mjs`))).shipped;
}

describe("faultlab's own runners, handed in", () => {
  it.each([
    ['a re-export of ReferenceRunner', 'reexport', "export { ReferenceRunner as LearnerRunner } from './ReferenceRunner.js';\n", 'reference'],
    ['a class that extends it', 'extends', "import { ReferenceRunner } from './ReferenceRunner.js';\nexport class LearnerRunner extends ReferenceRunner {}\n", 'reference'],
    ['the package’s ReferenceRunner', 'fromPackage', "import { ReferenceRunner } from 'faultlab';\nexport const LearnerRunner = ReferenceRunner;\n", 'reference'],
    ['a mutant picked from the package', 'mutant', "import { MUTANTS } from 'faultlab';\nexport const LearnerRunner = MUTANTS[0]!.runner;\n", 'mutant'],
  ])('%s is named as such', async (_what, name, code, shipped) => {
    expect(await shippedIn(name, code)).toBe(shipped);
  });

  it.each([
    ['a solved LearnerRunner.ts (its own imports: ./BaseRunner.js, ./state.js, ../inventory/errors.js)', 'solution', null],
    ['a step of its own on BaseRunner and the errors imported from the package', 'ownFromPackage', "import { BaseRunner, isTransientError } from 'faultlab';\nexport class LearnerRunner extends BaseRunner { step(s: any) { return isTransientError(s) ? s : s; } }\n"],
  ])('%s is not', async (_what, name, code) => {
    expect(await shippedIn(name, code)).toBeNull();
  });
});
