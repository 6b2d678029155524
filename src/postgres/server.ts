/**
 * An embedded PostgreSQL with no set-up: `startEmbeddedPostgres()` gives a connection URL to a fresh server of
 * faultlab's own, and the server lives no longer than faultlab.
 *
 * Start: sweep the folders of servers whose faultlab is gone (folder.ts); make a fresh folder, marked as this
 * process's and owned by the server's user (launcher.ts: 65534 when faultlab is root); link the binaries into it
 * if that user cannot reach them where they are (binaries.ts); `initdb` (trust, UTF8, the C locale, no sync:
 * ~1 s here); `postgres` on a unix socket in that folder and no TCP port at all; then wait until a connection is
 * accepted — tried again whenever the server rewrites its lock file (it writes "ready" there when it is),
 * not on a timer. Stop: SIGINT (PostgreSQL's fast shutdown), a bounded wait, SIGKILL; the folder removed.
 *
 * The server dies with faultlab on every way out: `stop()` on the way out of a command or a test run; the
 * process's 'exit' (a normal end, an uncaught exception, the CLI's SIGINT/SIGTERM handlers, which exit)
 * kills it with SIGKILL and removes its folder; a faultlab killed outright takes it along (setpriv
 * --pdeathsig) and the next start sweeps the folder left behind.
 *
 * This file reads real time only for two limits: how long a start may take, and how long a server may take to
 * shut down before it is killed (a limit, never a figure of a run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, openSync, readFileSync, rmSync, watch, type FSWatcher } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dynamicImport } from '../core/dynamicImport.js';
import { binariesIn, findBinaries, linkTree, reachableBy, type Binaries } from './binaries.js';
import { PostgresStartError } from './errors.js';
import { DATA, dropSegment, LOG, lockFileOf, makeServerFolder, sweepStaleServers } from './folder.js';
import { launcher, SERVER_ENV } from './launcher.js';
import { socketUrl, SUPERUSER } from './url.js';

/**
 * The server's settings, the simulation's choices. What faultlab models is a crash of *processes* — the
 * runner's, a worker's, a server backend's, even the whole server's — never of the machine:
 * - `fsync=off`: a commit's WAL is written to the operating system, not forced to the disk. Whatever a
 *   process crash does, the OS still has it; only a power cut or a kernel crash could lose it (not modelled).
 * - `synchronous_commit=on` (PostgreSQL's default, said here because it matters): COMMIT returns only once
 *   its WAL is written. With `off`, a crash of the server would lose commits its clients were told of.
 * - `full_page_writes=off`: guards against pages torn by a power cut, which is not modelled.
 * - `dynamic_shared_memory_type=mmap`: its segments are files in the data folder, not in /dev/shm, so a
 *   killed server leaves nothing outside its folder but one System V segment (folder.ts removes it).
 * - `listen_addresses=''`: no TCP port; the unix socket in its own folder is the only way in.
 */
export const SERVER_SETTINGS: Readonly<Record<string, string>> = {
  listen_addresses: '',
  fsync: 'off',
  synchronous_commit: 'on',
  full_page_writes: 'off',
  dynamic_shared_memory_type: 'mmap',
};

/** initdb and the first connection take ~1.2 s here; a loaded 2-core machine, several times that. */
export const START_LIMIT_MS = 60_000;
/** A fast shutdown of a test-sized cluster takes well under a second; past this it is killed. */
export const STOP_GRACE_MS = 5_000;
/** How much of initdb's output or the server's log an error carries. */
const LOG_LINES = 20;

export interface StartOptions {
  /** Where the server's folder is made (default: the system's temporary folder). */
  base?: string;
  /** Link the binaries into the folder even when the server's user reaches them where they are. */
  linkBinaries?: boolean;
  /** Settings over SERVER_SETTINGS (`-c name=value`). */
  settings?: Readonly<Record<string, string>>;
  startLimitMs?: number;
  /** Told as each step of the start ends (the folder made and swept, initdb done, the server ready): the caller may time them. */
  onStep?: (step: StartStep) => void;
}

export type StartStep = 'folder' | 'initdb' | 'ready';

export interface EmbeddedPostgres {
  /** postgresql://postgres@localhost:5432/postgres?host=<folder>: the superuser, over the unix socket. */
  readonly url: string;
  readonly folder: string;
  /** The postmaster's pid. */
  readonly pid: number;
  /** The user it runs as (null: faultlab's own). */
  readonly user: { uid: number; gid: number } | null;
  /** It dies with faultlab even if faultlab is killed outright. */
  readonly diesWithUs: boolean;
  /** Its binaries were linked into its folder. */
  readonly linked: boolean;
  /** SIGINT, a bounded wait, SIGKILL; then the folder is removed. Safe to call more than once. */
  stop(): Promise<void>;
  /** The same at once, for a process on its way out: SIGKILL, the folder removed. */
  stopNow(): void;
}

/** The servers of this process not yet stopped: the 'exit' hook stops them. */
const live = new Set<Server>();
let hooked = false;

class Server implements EmbeddedPostgres {
  readonly url: string;
  /** The server once spawned; initdb while it runs. */
  child: ChildProcess | null = null;
  initdb: ChildProcess | null = null;
  linked = false;
  private stopping: Promise<void> | null = null;

  constructor(
    readonly folder: string,
    readonly user: { uid: number; gid: number } | null,
    readonly diesWithUs: boolean,
  ) {
    this.url = socketUrl(folder);
    live.add(this);
    if (!hooked) {
      hooked = true;
      process.once('exit', () => {
        for (const server of [...live]) server.stopNow();
      });
    }
  }

  get pid(): number {
    return this.child?.pid ?? 0;
  }

  private get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      live.delete(this);
      const lock = lockFileOf(this.folder);
      if (this.running) {
        const child = this.child!;
        child.kill('SIGINT');
        if (!(await exited(child, STOP_GRACE_MS))) {
          child.kill('SIGKILL');
          await exited(child, STOP_GRACE_MS);
        }
      }
      // A shut-down server removed its segment; one that was killed (here, or by anyone before) left it.
      if (lock !== null) dropSegment(lock);
      rmSync(this.folder, { recursive: true, force: true, maxRetries: 5 });
    })();
    return this.stopping;
  }

  stopNow(): void {
    live.delete(this);
    if (this.initdb !== null && this.initdb.exitCode === null && this.initdb.signalCode === null) this.initdb.kill('SIGKILL');
    const lock = lockFileOf(this.folder);
    if (this.running) {
      this.child!.kill('SIGKILL');
      if (lock !== null) dropSegment(lock); // removed by the kernel once its dying backends let go of it
    }
    rmSync(this.folder, { recursive: true, force: true, maxRetries: 5 });
    this.stopping ??= Promise.resolve();
  }
}

/** Resolves true when `child` has exited, false after `ms` (the timer is cleared either way). */
function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', done);
      resolve(false);
    }, ms);
    function done() {
      clearTimeout(timer);
      resolve(true);
    }
    child.once('exit', done);
  });
}

/** A fresh embedded PostgreSQL of this process's own; see the top of this file. */
export async function startEmbeddedPostgres(options: StartOptions = {}): Promise<EmbeddedPostgres> {
  const found = await findBinaries();
  const base = options.base ?? tmpdir();
  sweepStaleServers(base);
  const how = launcher();
  const user = how.user;
  if (user !== null && !reachableBy(base, user.uid, user.gid)) throw new PostgresStartError({ kind: 'unreachable', uid: user.uid, folder: base });
  const server = new Server(makeServerFolder(base), user, how.diesWithUs);
  const limitMs = options.startLimitMs ?? START_LIMIT_MS;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PostgresStartError({ kind: 'limit', seconds: Math.round(limitMs / 1000) }, logTail(server.folder))), limitMs);
  });
  limit.catch(() => {}); // raced below; never left unhandled when the start ends first
  try {
    let binaries: Binaries = found;
    if (options.linkBinaries || (user !== null && !reachableBy(found.native, user.uid, user.gid))) {
      linkTree(found.native, join(server.folder, 'native'));
      binaries = binariesIn(join(server.folder, 'native'));
      server.linked = true;
    }
    if (user !== null) chownSync(server.folder, user.uid, user.gid);
    options.onStep?.('folder');
    await Promise.race([initdb(binaries, server, how), limit]);
    options.onStep?.('initdb');
    await Promise.race([serve(binaries, server, how, options.settings ?? {}), limit]);
    options.onStep?.('ready');
    return server;
  } catch (error) {
    server.stopNow();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** initdb into <folder>/data: the superuser `postgres`, trusted on the socket; UTF8 and the C locale; no fsync. */
function initdb(binaries: Binaries, server: Server, how: ReturnType<typeof launcher>): Promise<void> {
  const args = ['-D', join(server.folder, DATA), '-U', SUPERUSER, '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'];
  const run = how.wrap(binaries.initdb, args);
  const child = spawn(run.command, run.args, { cwd: server.folder, env: SERVER_ENV, stdio: ['ignore', 'pipe', 'pipe'], ...idsOf(run) });
  server.initdb = child; // a start given up (its time limit, the process's exit) kills it
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-16_384);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return new Promise((resolve, reject) => {
    child.once('error', (error) => reject(new PostgresStartError({ kind: 'initdb', status: (error as NodeJS.ErrnoException).code ?? error.message }, '', error)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new PostgresStartError({ kind: 'initdb', status: signal ?? `code ${code}` }, lastLines(output)));
    });
  });
}

/**
 * Start the server and wait until it accepts a connection. A try is made at the start and whenever the data
 * folder changes (the lock file gets "ready" once the server is), never on a timer; the server exiting first
 * ends the wait with its log.
 */
async function serve(binaries: Binaries, server: Server, how: ReturnType<typeof launcher>, settings: Readonly<Record<string, string>>): Promise<void> {
  const { Client } = await dynamicImport<typeof import('pg')>('pg'); // loaded only by a command that starts a server
  const data = join(server.folder, DATA);
  const all = { ...SERVER_SETTINGS, ...settings };
  const args = ['-D', data, '-k', server.folder, ...Object.entries(all).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  const run = how.wrap(binaries.postgres, args);
  let watcher: FSWatcher | null = null;
  const log = openSync(join(server.folder, LOG), 'a', 0o600);
  try {
    return await new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (error?: Error) => {
        if (settled) return;
        settled = true;
        watcher?.close();
        if (error) reject(error);
        else resolve();
      };
      let trying = false;
      let again = false;
      const attempt = async () => {
        if (trying) {
          again = true;
          return;
        }
        trying = true;
        try {
          do {
            again = false;
            if (settled) return;
            if (await accepts(Client, server.url)) return finish();
          } while (again);
        } catch (error) {
          finish(new PostgresStartError({ kind: 'refused', message: (error as Error).message }, logTail(server.folder), error));
        } finally {
          trying = false;
        }
      };
      watcher = watch(data, () => void attempt());
      // Its own session: a Ctrl-C at the terminal reaches faultlab, which stops the server; not the server first.
      const child = spawn(run.command, run.args, { cwd: server.folder, env: SERVER_ENV, stdio: ['ignore', log, log], detached: true, ...idsOf(run) });
      server.child = child;
      child.unref(); // a server nobody stopped does not keep the process alive: its 'exit' hook kills it
      child.once('error', (error) => finish(new PostgresStartError({ kind: 'exited', status: (error as NodeJS.ErrnoException).code ?? error.message }, '', error)));
      child.once('exit', (code, signal) => finish(new PostgresStartError({ kind: 'exited', status: signal ?? `code ${code}` }, logTail(server.folder))));
      void attempt();
    });
  } finally {
    closeSync(log); // the server keeps its own copy
  }
}

/** Whether the server accepts a connection now; false while it is not listening yet or still starting up. */
async function accepts(Client: typeof import('pg').Client, url: string): Promise<boolean> {
  const client = new Client({ connectionString: url });
  client.on('error', () => {}); // a failed start is answered through connect()'s rejection
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    // ENOENT/ECONNREFUSED: no socket yet; 57P03: "the database system is starting up".
    if (code === 'ENOENT' || code === 'ECONNREFUSED' || code === '57P03') return false;
    throw error;
  }
}

function idsOf(run: { uid?: number; gid?: number }): { uid?: number; gid?: number } {
  return run.uid === undefined ? {} : { uid: run.uid, gid: run.gid! };
}

function lastLines(text: string): string {
  return text.trimEnd().split('\n').slice(-LOG_LINES).join('\n');
}

function logTail(folder: string): string {
  try {
    return lastLines(readFileSync(join(folder, LOG), 'utf8'));
  } catch {
    return '';
  }
}
