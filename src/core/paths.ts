/** Where the package's own files are, whether running from src/ (tests) or dist/src/ (the built CLI). */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'scenarios'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('faultlab: cannot find the package root (package.json next to scenarios/)');
    dir = parent;
  }
}

export const PACKAGE_ROOT = findRoot();
export const SCENARIOS_DIR = join(PACKAGE_ROOT, 'scenarios');
/** The graded set's own scenarios, graded after the 17 (each a branch of the contract the 17 never take). */
export const GRADED_DIR = join(SCENARIOS_DIR, 'graded');
/** What `faultlab grade` grades unless told otherwise: the 17, then scenarios/graded. */
export const GRADED_TARGETS: readonly string[] = [SCENARIOS_DIR, GRADED_DIR];
export const SCENARIO_SCHEMA_PATH = join(SCENARIOS_DIR, 'scenario.schema.json');
/** The labs' schema (src/labs): `kind: lab` documents in scenarios/labs/. */
export const LAB_SCHEMA_PATH = join(SCENARIOS_DIR, 'labs', 'lab.schema.json');
/** The races on PostgreSQL (`kind: postgres_race`, src/labs/races). */
export const RACE_SCHEMA_PATH = join(SCENARIOS_DIR, 'postgres', 'race.schema.json');
/** The exercise: the one file a learner edits. */
export const LEARNER_FILE = join(PACKAGE_ROOT, 'src', 'runner', 'LearnerRunner.ts');
