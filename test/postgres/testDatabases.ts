/**
 * The names of the test files' databases, and the sweep of those a killed run left on a server of your own.
 * A name says whose it is — `faultlab_t_<host>_<pid>_<file>_<n>` — so the sweep drops only this host's, only
 * those whose process is gone. (The embedded server needs no sweep: it goes with its run.) No vitest here:
 * the global setup uses it, in vitest's own process.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';

const PREFIX = 'faultlab_t_';
const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 6);
const NAME = new RegExp(`^${PREFIX}([0-9a-f]{6})_(\\d+)_`);

/** The name of test file `file`'s `n`th database, made by this process (at most 63 bytes, PostgreSQL's limit). */
export function testDatabaseName(file: string, n: number, pid = process.pid): string {
  const slug = file.replace(/\.pg\.test\.ts$/, '').replace(/[^a-z0-9]+/gi, '_').toLowerCase().slice(0, 24);
  return `${PREFIX}${HOST}_${pid}_${slug}_${n}`;
}

/** Drop the test databases of this host on `url` whose process is gone; returns their names. */
export async function dropStaleTestDatabases(url: string): Promise<string[]> {
  return asAdmin(url, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname`, [PREFIX]);
    const stale = rows.map((row) => row.datname).filter((name) => {
      const match = NAME.exec(name);
      return match !== null && match[1] === HOST && !alive(Number(match[2]));
    });
    for (const name of stale) await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    return stale;
  });
}

/** `work` on a connection of the server's superuser (or whoever `url` names), closed after it. */
export async function asAdmin<T>(url: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** The run schemas on the server (faultlab_run_…), by name: what a command that is done must not leave behind. */
export function runSchemas(url: string): Promise<string[]> {
  return asAdmin(url, async (admin) => (await admin.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE starts_with(nspname, 'faultlab_run_') ORDER BY nspname`)).rows.map((row) => row.nspname));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
