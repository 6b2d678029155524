/**
 * `--db` names the database the protocol runs on: sqlite (the default), postgres (the embedded server) or a
 * PostgreSQL URL. A value it does not take is bad input (exit 2) that says what it takes; a URL's password is
 * never repeated back. Until the protocol runs on PostgreSQL, `run` says so plainly instead of running on SQLite.
 */
import { describe, expect, it } from 'vitest';
import { parseDb } from '../../src/cli/options.js';
import { cli } from '../support.js';

describe('--db', () => {
  it('is SQLite when not given, or given as sqlite: the same run, byte for byte', async () => {
    const plain = await cli(['run', 'lost_reply', '--quiet']);
    const sqlite = await cli(['run', 'lost_reply', '--quiet', '--db', 'sqlite']);
    expect([plain.code, sqlite.code]).toEqual([0, 0]);
    expect(sqlite.stdout).toBe(plain.stdout);
  });

  it('takes postgres (the embedded server) and a postgres:// or postgresql:// URL, a unix socket folder included', () => {
    expect(parseDb(undefined)).toEqual({ kind: 'sqlite' });
    expect(parseDb('postgres')).toEqual({ kind: 'postgres', url: null });
    expect(parseDb('postgres://app:pw@db.example:5433/shop')).toEqual({ kind: 'postgres', url: 'postgres://app:pw@db.example:5433/shop' });
    expect(parseDb('postgresql:///shop?host=/var/run/postgresql')).toEqual({ kind: 'postgres', url: 'postgresql:///shop?host=/var/run/postgresql' });
  });

  it('refuses any other value with what it takes (exit 2, with the help)', async () => {
    const mysql = await cli(['run', 'lost_reply', '--db', 'mysql']);
    expect(mysql.code).toBe(2);
    expect(mysql.stderr).toMatch(/^faultlab run: --db must be sqlite, postgres or a URL postgres:\/\/USER@HOST:PORT\/DATABASE, got "mysql"\n\nfaultlab run/);
    expect(mysql.stderr).toContain('--db DB');
  });

  it('refuses a URL that names no server or does not parse, without repeating its password', async () => {
    const noHost = await cli(['run', 'lost_reply', '--db', 'postgres:///shop']);
    expect(noHost.code).toBe(2);
    expect(noHost.stderr).toContain('--db "postgres:///shop" is not a URL faultlab can connect with: it names no server (give a host, or the folder of a unix socket as ?host=/path)');
    const broken = await cli(['run', 'lost_reply', '--db', 'postgres://app:s3cret@/shop']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('--db "postgres://app:***@/shop" is not a URL faultlab can connect with: it does not parse as a URL');
    expect(broken.stderr).not.toContain('s3cret');
  });

  it('says, for now, that the scenarios do not run on PostgreSQL yet (exit 2, nothing run)', async () => {
    for (const given of ['postgres', 'postgres://app@db.example/shop']) {
      const refused = await cli(['run', 'lost_reply', '--db', given]);
      expect(refused).toEqual({
        code: 2,
        stdout: '',
        stderr: `faultlab run: --db ${given === 'postgres' ? 'postgres' : 'postgres://…'}: the scenarios do not run on PostgreSQL yet; for now they run on SQLite only (--db sqlite, the default)\n`,
      });
    }
  });

  it('says the same in Chinese', async () => {
    const refused = await cli(['run', 'lost_reply', '--db', 'mysql', '--lang', 'zh']);
    expect(refused.stderr).toContain('--db 只能是 sqlite、postgres 或 URL postgres://USER@HOST:PORT/DATABASE，得到的是 "mysql"');
  });
});
