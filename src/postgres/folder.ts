/**
 * An embedded server's folder, `faultlab-pg-<pid>-XXXXXX` in the system's temporary folder, and the promise
 * that none outlives its server and its faultlab for long (as src/core/tempDir.ts keeps for run folders).
 *
 * The folder holds everything of one server: its data (`data/`), its unix socket, its log, the binaries
 * when they had to be linked, and a marker naming the faultlab process and host it belongs to. faultlab
 * removes it when it stops the server; a faultlab killed outright leaves it (its server died with it, see
 * launcher.ts). The sweep at the next start removes such a folder: only a marked one, of this host, whose
 * faultlab is gone and whose server is gone — with the one thing a killed server leaves outside its folder,
 * its small System V shared-memory segment (the lock file names it). An unmarked folder is never touched.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'faultlab-pg-';
const OWN_NAME = /^faultlab-pg-(\d+)-[A-Za-z0-9]{6}$/;
/** The marker's name inside a server folder; its content says whose the folder is. */
export const SERVER_MARKER = '.faultlab-postgres';
/** The data folder inside a server folder (initdb's -D). */
export const DATA = 'data';
/** The server's log (its stderr) inside a server folder. */
export const LOG = 'server.log';

interface Marker {
  pid: number;
  host: string;
}

/** A new server folder under `base`, marked as this process's (mode 0700: the caller hands it to the server's user). */
export function makeServerFolder(base: string): string {
  const folder = mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
  writeFileSync(join(folder, SERVER_MARKER), `${JSON.stringify({ pid: process.pid, host: hostname() } satisfies Marker)}\n`);
  return folder;
}

function markerOf(folder: string): Marker | null {
  try {
    const marker = JSON.parse(readFileSync(join(folder, SERVER_MARKER), 'utf8')) as Partial<Marker>;
    return typeof marker.pid === 'number' && typeof marker.host === 'string' ? (marker as Marker) : null;
  } catch {
    return null;
  }
}

/** What the server's lock file (data/postmaster.pid) says: its pid, and its System V segment's id. */
export interface LockFile {
  pid: number;
  shmId: number | null;
}

export function lockFileOf(folder: string): LockFile | null {
  let lines: string[];
  try {
    lines = readFileSync(join(folder, DATA, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  // Line 7: the segment's key and id, e.g. "  2146392         8".
  const shm = /^\s*\d+\s+(\d+)\s*$/.exec(lines[6] ?? '');
  return { pid, shmId: shm ? Number(shm[1]) : null };
}

/** Whether process `pid` is a server of `folder`: its command line names it (a zombie's is empty: gone). */
export function isServerOf(pid: number, folder: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(folder);
  } catch {
    return false;
  }
}

/**
 * Remove the System V segment a server of `lock` made (it outlives a killed server: 56 bytes, one per kill).
 * Only that segment: its id and creator's pid must both match. Safe while its last processes still hold it:
 * the kernel then removes it when they let go.
 */
export function dropSegment(lock: LockFile): void {
  if (lock.shmId === null) return;
  let table: string;
  try {
    table = readFileSync('/proc/sysvipc/shm', 'utf8');
  } catch {
    return;
  }
  // Columns: key shmid perms size cpid lpid nattch …
  const ours = table
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .some((row) => Number(row[1]) === lock.shmId && Number(row[4]) === lock.pid);
  if (ours) spawnSync('ipcrm', ['-m', String(lock.shmId)], { stdio: 'ignore', timeout: 10_000 });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // someone else's process: alive all the same
  }
}

export interface Swept {
  /** Folders removed: their faultlab and their server were gone. */
  removed: string[];
  /** Servers ended: their faultlab was gone but they ran on (started where setpriv was missing). Their folders go next time. */
  ended: string[];
}

/** At a server's start: remove the folders under `base` left by faultlab processes of this host that are gone. */
export function sweepStaleServers(base: string): Swept {
  const swept: Swept = { removed: [], ended: [] };
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return swept;
  }
  for (const name of names) {
    const owner = OWN_NAME.exec(name)?.[1];
    if (owner === undefined || Number(owner) === process.pid || isAlive(Number(owner))) continue;
    const folder = join(base, name);
    const marker = markerOf(folder);
    if (marker === null || marker.pid !== Number(owner) || marker.host !== hostname()) continue;
    const lock = lockFileOf(folder);
    if (lock !== null && isServerOf(lock.pid, folder)) {
      try {
        process.kill(lock.pid, 'SIGKILL'); // an orphan: nobody will ever stop it
        swept.ended.push(folder);
      } catch {
        // not ours to end
      }
      continue;
    }
    try {
      if (lock !== null) dropSegment(lock);
      rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
      swept.removed.push(folder);
    } catch {
      // someone else's permissions: leave it
    }
  }
  return swept;
}
