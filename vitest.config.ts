import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The simulator is synchronous and deterministic; tests never sleep. A generous per-test
    // budget only guards against a hang (the grader's timeout tests spawn workers).
    testTimeout: 30_000,
  },
});
