/**
 * The run's one server and a database per test file: a file gets an empty database of its own, which no other
 * file sees, on the server the global setup started (or FAULTLAB_PG_URL's).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noPostgres, serverUrl, testDatabase } from './database.js';

describe.skipIf(noPostgres !== null)(`a test file's own database${noPostgres ? ` (skipped: ${noPostgres})` : ''}`, () => {
  let client: pg.Client;
  let url: string;
  beforeAll(async () => {
    url = await testDatabase();
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(() => client.end());

  it('is new and empty, named for the file, on the run\'s server', async () => {
    const { rows } = await client.query<{ db: string; tables: number }>("SELECT current_database() AS db, (SELECT count(*)::int FROM pg_tables WHERE schemaname = 'public') AS tables");
    expect(rows[0]!.db).toMatch(/^faultlab_t_[0-9a-f]{6}_\d+_database_1$/);
    expect(rows[0]!.tables).toBe(0);
    expect(new URL(url).searchParams.get('host')).toBe(new URL(serverUrl!).searchParams.get('host'));
  });
});
