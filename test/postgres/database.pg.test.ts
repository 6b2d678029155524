/**
 * The run's one server and a database per test file: a file gets an empty database of its own, which no other
 * file sees, on the server the global setup started (or FAULTLAB_PG_URL's).
 */
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noPostgres, serverUrl, testDatabase } from './database.js';
import { asAdmin, dropStaleTestDatabases, testDatabaseName } from './testDatabases.js';

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

  it("drops, on a server of one's own, only the test databases of this host whose process is gone", async () => {
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    const killedRun = testDatabaseName('killed.pg.test.ts', 1, dead);
    const liveRun = testDatabaseName('live.pg.test.ts', 1, process.ppid);
    const otherHost = killedRun.replace(/^faultlab_t_[0-9a-f]{6}_/, 'faultlab_t_zzzzzz_');
    await asAdmin(serverUrl!, async (admin) => {
      for (const name of [killedRun, liveRun, otherHost]) await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE template0`);
    });
    try {
      expect(await dropStaleTestDatabases(serverUrl!)).toEqual([killedRun]);
      const left = await asAdmin(serverUrl!, (admin) => admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname = ANY($1) ORDER BY datname', [[killedRun, liveRun, otherHost]]));
      expect(left.rows.map((row) => row.datname)).toEqual([liveRun, otherHost].sort());
    } finally {
      await asAdmin(serverUrl!, async (admin) => {
        for (const name of [liveRun, otherHost]) await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)}`);
      });
    }
  });
});
