/**
 * A database of its own for each test file, on the run's one server (globalSetup.ts): `CREATE DATABASE …
 * TEMPLATE template0` (~0.1–0.4 s here), dropped when the file is done (WITH (FORCE): connections a test
 * left open do not keep it).
 */
import { basename } from 'node:path';
import pg from 'pg';
import { afterAll, expect, inject } from 'vitest';
import { withDatabase } from '../../src/postgres/url.js';
import { asAdmin, testDatabaseName } from './testDatabases.js';

const provided = inject('postgres');
/** Why this run has no PostgreSQL (a file then skips its tests, saying so), or null. */
export const noPostgres: string | null = 'skip' in provided ? provided.skip : null;
/** The run's server, as its superuser (an external one's URL as given). */
export const serverUrl: string | null = 'skip' in provided ? null : provided.url;

let made = 0;
const mine: string[] = [];

afterAll(async () => {
  if (mine.length === 0 || serverUrl === null) return;
  await asAdmin(serverUrl, async (admin) => {
    for (const name of mine.splice(0)) await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  });
});

/** The URL of a new, empty database for this test file on the run's server; dropped after the file. */
export async function testDatabase(): Promise<string> {
  if (serverUrl === null) throw new Error(noPostgres!);
  made += 1;
  const name = testDatabaseName(basename(expect.getState().testPath ?? 'file'), made);
  await asAdmin(serverUrl, (admin) => admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE template0`));
  mine.push(name);
  return withDatabase(serverUrl, name);
}
