import { configDefaults, defineConfig } from 'vitest/config';

/** Test files that need PostgreSQL: a project of their own, whose global setup starts one server for the run. */
const POSTGRES_FILES = 'test/**/*.pg.test.ts';

export default defineConfig({
  test: {
    // The simulator is synchronous and deterministic; tests never sleep. A generous per-test
    // budget only guards against a hang (the grader's timeout tests spawn workers).
    testTimeout: 30_000,
    // Two projects, so that a run with no PostgreSQL file in it (`npx vitest run test/core`) starts no server:
    // vitest sets up a project's globals only when one of its files runs.
    projects: [
      { extends: true, test: { name: 'faultlab', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, POSTGRES_FILES] } },
      { extends: true, test: { name: 'postgres', include: [POSTGRES_FILES], globalSetup: ['test/postgres/globalSetup.ts'] } },
    ],
  },
});
