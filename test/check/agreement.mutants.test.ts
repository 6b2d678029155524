/**
 * One verdict, for every mutant: `faultlab run` and `faultlab explore` agree on it; a runner mutant is also graded
 * (from a file that exports it) and run through the classroom assertions, with the same verdict everywhere. A store
 * mutant brings its own tool, which a learner's grade never meets. (The learner fixtures: agreement.fixtures.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { InventoryTool } from '../../src/inventory/InventoryTool.js';
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { byClassroom, byExplore, byGrade, byRun, expectAgreement, ROOT, scratchFolder } from './agreement.js';

const scratch = scratchFolder();
afterAll(() => scratch.remove());

describe('one verdict: run, explore, grade and the classroom agree on every mutant', () => {
  describe.each(MUTANTS.map((m) => m.name))('the mutant %s', (name) => {
    const mutant = MUTANTS.find((m) => m.name === name)!;
    it('gets the same verdict on every scenario as written, and the same count of broken schedules', async () => {
      const run = await byRun(`mutant:${name}`);
      const explored = await byExplore(`mutant:${name}`, join(scratch.dir, 'explore'));
      if (mutant.tool !== InventoryTool) {
        expectAgreement(run, { explored, graded: { asWritten: run, explored: {} } });
        return;
      }
      const file = join(scratch.dir, `${name}.ts`);
      writeFileSync(file, `import { MUTANTS } from ${JSON.stringify(join(ROOT, 'src', 'mutants', 'catalogue.ts'))};\nexport const LearnerRunner = MUTANTS.find((m) => m.name === ${JSON.stringify(name)})!.runner;\n`);
      const graded = await byGrade(file, ['no_budget_check', 'pending_dropped_after_transient'].includes(name));
      const classroom = await byClassroom(mutant.runner);
      expectAgreement(run, { explored, graded, classroom });
    }, 120_000);
  });
});
