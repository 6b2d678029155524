/**
 * faultlab's temporary folders, and the promise that none outlives its process for long.
 *
 * Each process has one folder of its own in the system's temporary folder, `faultlab-<pid>-XXXXXX`, marked
 * as faultlab's by a marker file naming the host and the process; every run's folder is made inside it.
 * Worker threads use their process's folder (they share its pid; its path reaches them through the
 * environment they inherit). A run's folder is removed when the run ends (FileStorage.dispose); the whole
 * process folder goes when the process exits, and on SIGINT and SIGTERM (src/cli) — after which a worker
 * thread still running cannot make a new run folder, since the folder it would go in is gone. A process
 * killed outright (SIGKILL, a power cut) leaves its folder; the next start sweeps it: only marked folders,
 * only of this host, only once the process that made them is gone. An unmarked folder is never touched.
 *
 * A run may start processes of its own that work in its folder (`faultlab torture`'s workers): it lists their
 * pids in the folder (CHILDREN_FILE), and a sweep kills those still working there before it removes the folder
 * — a worker stopped (SIGSTOP) when its driver was killed outright would otherwise wait for ever.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreCode } from './codes.js';
import { EnvironmentError } from './environment.js';
import { message, MessageError, saidOf, type Message } from './message.js';

const PREFIX = 'faultlab-';
/** The marker's name inside a process folder; its content says whose the folder is. */
export const TEMP_MARKER = '.faultlab-temp';
const OWN_NAME = /^faultlab-(\d+)-[A-Za-z0-9]{6}$/;
/** A run folder's list of the processes working in it, one pid a line. */
export const CHILDREN_FILE = '.faultlab-children';
/** How a process's folder reaches its worker threads. */
const PARENT_VARIABLE = 'FAULTLAB_TEMP_PARENT';

interface Marker {
  pid: number;
  host: string;
}

/** The temporary folder cannot be made: TMPDIR names no folder, or one faultlab may not write to, or a full one. */
export class TempDirError extends EnvironmentError {
  override readonly name = 'TempDirError';
  readonly code = 'TEMP_DIR';
  readonly base: string;
  /** What went wrong, as a message (its code text is the `.message`). */
  declare readonly said: Message<CoreCode>;

  constructor(base: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException).code ?? '';
    super(message<CoreCode>('tempDir.cannotMake', { base, reason: code || (saidOf(cause) ?? (cause as Error).message) }), { cause });
    this.base = base;
  }
}

/** Whether this is the process's main thread; worker_threads is taken only when a folder is made, not at start-up. */
const isMainThread = () => process.getBuiltinModule('node:worker_threads').isMainThread;

/** This process's folder under each temporary folder it has used (TMPDIR can change between runs). */
const parents = new Map<string, string>();

function markerOf(dir: string): Marker | null {
  try {
    const marker = JSON.parse(readFileSync(join(dir, TEMP_MARKER), 'utf8')) as Partial<Marker>;
    return typeof marker.pid === 'number' && typeof marker.host === 'string' ? (marker as Marker) : null;
  } catch {
    return null;
  }
}

const isOwn = (dir: string) => {
  const marker = markerOf(dir);
  return marker !== null && marker.pid === process.pid && marker.host === hostname();
};

function processFolder(base: string): string {
  const known = parents.get(base);
  if (known !== undefined) return known;
  // A worker thread: its process's folder, if the process made one here (a child process has another pid).
  const inherited = process.env[PARENT_VARIABLE];
  if (!isMainThread() && inherited !== undefined && inherited.startsWith(join(base, PREFIX))) {
    if (!isOwn(inherited)) throw new TempDirError(base, new MessageError(message<CoreCode>('tempDir.stopping')));
    parents.set(base, inherited);
    return inherited;
  }
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
    writeFileSync(join(dir, TEMP_MARKER), `${JSON.stringify({ pid: process.pid, host: hostname() } satisfies Marker)}\n`);
  } catch (error) {
    // A folder whose marker could not be written (a full disk) is no folder of ours that a sweep would know: gone now.
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    throw new TempDirError(base, error);
  }
  parents.set(base, dir);
  if (isMainThread()) {
    process.env[PARENT_VARIABLE] = dir; // worker threads started from now on inherit it
    if (parents.size === 1) process.once('exit', removeOwnTempDirs);
  }
  return dir;
}

/** A fresh temporary folder for one use (`purpose`, a word, starts its name), inside the process's own. */
export function makeTempDir(purpose: string): string {
  const base = tmpdir();
  const parent = processFolder(base);
  try {
    return mkdtempSync(join(parent, `${purpose.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}-`));
  } catch (error) {
    throw new TempDirError(base, error);
  }
}

/** A folder of this name in the process's own folder: the same for every thread of the process, made if need be. */
export function sharedTempDir(name: string): string {
  const base = tmpdir();
  const dir = join(processFolder(base), name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40));
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new TempDirError(base, error);
  }
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Whether a process of this id is running (anyone's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — alive all the same.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A folder holding only an empty marker: the trace of a folder made when the disk had no room for its marker. */
function leftEmptyMarked(dir: string): boolean {
  try {
    return readdirSync(dir).join('/') === TEMP_MARKER && statSync(join(dir, TEMP_MARKER)).size === 0;
  } catch {
    return false;
  }
}

/**
 * Kill the processes the run folders inside `dir` list that still work there. A pid is someone else's once its
 * process has gone and the number been given again: only a process whose command line names the run folder is
 * killed (Linux's /proc; where there is none, nothing is).
 */
function killChildren(dir: string): void {
  let runs: string[];
  try {
    runs = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of runs) {
    const run = join(dir, name);
    let pids: string[];
    try {
      pids = readFileSync(join(run, CHILDREN_FILE), 'utf8').split('\n');
    } catch {
      continue; // no processes of its own
    }
    for (const pid of pids) {
      if (!/^\d+$/.test(pid)) continue;
      let commandLine = '';
      try {
        commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        continue; // gone
      }
      if (!commandLine.includes(run)) continue;
      try {
        process.kill(Number(pid), 'SIGKILL'); // a stopped process dies of it too
      } catch {
        // gone in between, or not ours to kill
      }
    }
  }
}

/** Remove the marked folders of this host under `base` for which `whose(pid)` holds; returns what was removed. */
function sweep(base: string, whose: (pid: number) => boolean): string[] {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return []; // no temporary folder at all: nothing to sweep (making one will say why it failed)
  }
  const gone: string[] = [];
  for (const name of names) {
    const pid = OWN_NAME.exec(name)?.[1];
    if (pid === undefined || !whose(Number(pid))) continue;
    const dir = join(base, name);
    const marker = markerOf(dir);
    if (marker === null && leftEmptyMarked(dir)) {
      // An older faultlab's folder on a full disk: its marker is empty and nothing else is in it.
      rmSync(dir, { recursive: true, force: true });
      gone.push(dir);
      continue;
    }
    if (marker === null || marker.pid !== Number(pid) || marker.host !== hostname()) continue;
    try {
      if (!statSync(dir).isDirectory()) continue;
      killChildren(dir);
      // Twice: a worker thread may have made a run folder inside while the first pass ran.
      for (let pass = 0; pass < 2; pass += 1) {
        try {
          rmSync(dir, { recursive: true, force: true });
          break;
        } catch (error) {
          if (pass === 1) throw error;
        }
      }
      gone.push(dir);
    } catch {
      // someone else's permissions: leave it
    }
  }
  return gone;
}

/** At start-up: remove the folders left by faultlab processes that are gone (killed before they could). */
export function sweepStaleTempDirs(): string[] {
  return sweep(tmpdir(), (pid) => pid !== process.pid && !isAlive(pid));
}

/**
 * On the way out (a signal, the exit): this process's folders, worker threads' runs included. A worker
 * thread still running then finds its process's folder gone and makes no new one.
 */
export function removeOwnTempDirs(): void {
  const bases = new Set([...parents.keys(), tmpdir()]);
  parents.clear();
  for (const base of bases) sweep(base, (pid) => pid === process.pid);
}

/** Throws TempDirError now, before any work, if no temporary folder can be made. Makes the process's own. */
export function checkTempDir(): void {
  removeTempDir(makeTempDir('check'));
}
