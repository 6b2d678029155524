/**
 * One PostgreSQL for the whole test run, for the test files that need one (`*.pg.test.ts`: vitest.config.ts runs
 * them as a project of their own, so a run without any starts nothing). Each file gets its own database from it
 * (database.ts). FAULTLAB_PG_URL names a server of your own instead: then nothing is started, and the test
 * databases a killed run left there are dropped first.
 *
 * The embedded server is stopped at the end (SIGINT, a bounded wait, SIGKILL) and its folder removed; a run
 * killed outright takes the server with it (setpriv --pdeathsig) and the next run sweeps its folder. Where there
 * is no embedded PostgreSQL (not Linux x64) and no URL, the files that need it are skipped with the reason —
 * except on CI (CI=true), where that fails the run.
 */
import type { TestProject } from 'vitest/node';
import { PostgresUnavailableError } from '../../src/postgres/errors.js';
import { word } from '../../src/render/words/index.js';
import { startEmbeddedPostgres } from '../../src/postgres/server.js';
import { dropStaleTestDatabases } from './testDatabases.js';

/** What the test files are given: a server's superuser URL, or why there is none. */
export type ProvidedPostgres = { url: string; external: boolean } | { skip: string };

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: ProvidedPostgres;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const external = process.env.FAULTLAB_PG_URL;
  if (external !== undefined && external !== '') {
    await dropStaleTestDatabases(external);
    project.provide('postgres', { url: external, external: true });
    return undefined;
  }
  try {
    const server = await startEmbeddedPostgres();
    project.provide('postgres', { url: server.url, external: false });
    return () => server.stop();
  } catch (error) {
    if (!(error instanceof PostgresUnavailableError) || process.env.CI === 'true') throw error;
    project.provide('postgres', { skip: word('en', error.said) });
    return undefined;
  }
}
