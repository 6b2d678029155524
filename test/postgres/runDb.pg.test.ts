/**
 * `faultlab run --db …`, `faultlab explore --db …` and `faultlab grade --db …` on PostgreSQL: a server by URL (the test run's), or the
 * embedded one the command starts and removes itself. The same summary and tallies as on SQLite, each trace's
 * header and the exploration's naming the database.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cli } from '../support.js';
import { tempFolder } from '../tempFolder.js';
import { noPostgres, testDatabase } from './database.js';
import { runSchemas } from './testDatabases.js';

const out = tempFolder('grade-pg');

describe.skipIf(noPostgres !== null)(`faultlab run --db${noPostgres !== null ? ` (skipped: ${noPostgres})` : ''}`, () => {
  it('runs the 17 on a server given by URL: the same summary as on SQLite, and nothing left there', async () => {
    const url = await testDatabase();
    const [onSqlite, onPostgres] = [await cli(['run', '--quiet']), await cli(['run', '--quiet', '--db', url])];
    expect([onPostgres.code, onPostgres.stderr]).toEqual([0, '']);
    // The same summary, line for line, up to the next commands — which keep --db, so that a next step stays there.
    const summary = (stdout: string) => stdout.slice(0, stdout.indexOf('  next:'));
    expect(summary(onPostgres.stdout)).toBe(summary(onSqlite.stdout));
    expect(onPostgres.stdout).toContain('17 passed, 0 failed (seed 42, reference runner)');
    expect(onPostgres.stdout.replace(/\s+/g, ' ')).toContain(`npm run grade -- --db '${url}'`);
    expect(await runSchemas(url)).toEqual([]);
  }, 60_000);

  it('runs on the embedded server with --db postgres, the trace\'s header naming it, in English and Chinese', async () => {
    const en = await cli(['run', 'lost_reply', '--db', 'postgres', '--no-color']);
    expect([en.code, en.stderr]).toEqual([0, '']);
    expect(en.stdout).toContain('stock camera 3 (v0), tripod 2 (v0) · on PostgreSQL\n');
    const zh = await cli(['run', 'lost_reply', '--db', 'postgres', '--no-color', '--lang', 'zh']);
    expect(zh.code).toBe(0);
    expect(zh.stdout).toContain('在 PostgreSQL 上');
  }, 120_000);

  it('explores on a server given by URL: the same tallies as on SQLite, the header naming PostgreSQL', async () => {
    const url = await testDatabase();
    const table = (out: string) => out.split('\n').filter((line) => /^\s+\d+\s+\S+\s+\d+/.test(line));
    const onSqlite = await cli(['explore', 'lost_reply', 'crash_before_commit', '--workers', '1', '--no-color']);
    const onPostgres = await cli(['explore', 'lost_reply', 'crash_before_commit', '--workers', '1', '--no-color', '--db', url]);
    expect([onPostgres.code, onPostgres.stderr]).toEqual([0, '']);
    expect(onPostgres.stdout).toMatch(/^faultlab explore — reference runner, depth 1, seed 42, PostgreSQL, 1 worker/);
    expect(table(onPostgres.stdout)).toHaveLength(2);
    expect(table(onPostgres.stdout)).toEqual(table(onSqlite.stdout));
  }, 120_000);
  it("grades a learner's runner on a server given by URL: the same grade as on SQLite, its next command keeping --db", async () => {
    const url = await testDatabase();
    const args = ['grade', 'test/fixtures/learners/NewKeyPerAttempt.ts', '--scenarios', 'happy_path', '--scenarios', 'lost_reply', '--replays', join(out, 'replays'), '--no-color'];
    const [onSqlite, onPostgres] = [await cli(args), await cli([...args, '--db', url])];
    expect([onSqlite.code, onPostgres.code, onPostgres.stderr]).toEqual([1, 1, '']);
    // The same lines, schedule for schedule; only the command that grades it again names the database.
    const plain = (out: string) => out.split('\n').filter((line) => !line.includes('--hint 2') && !line.includes('replay file'));
    expect(plain(onPostgres.stdout)).toEqual(plain(onSqlite.stdout));
    expect(onPostgres.stdout).toContain('score 1/4 — as written 1/2 · with added faults 0/2');
    expect(onPostgres.stdout).toMatch(/more: npx faultlab grade .* --db '?postgres(ql)?:\/\/\S+ --hint 2/); // quoted: the URL has a ? in it
    // Its pages would replay on SQLite: refused before anything is graded.
    const html = await cli([...args, '--db', url, '--html', join(out, 'pages')]);
    expect(html.code).toBe(2);
    expect(html.stderr).toContain('--html is for SQLite only');
  }, 180_000);
});
