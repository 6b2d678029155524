/**
 * faultlab's temporary folders, and the promise that none outlives its process for long.
 *
 * Each folder is made in the system's temporary folder as `faultlab-<pid>-XXXXXX` and marked as faultlab's
 * own by a marker file naming the host and the process that made it. The folder is removed when its run
 * ends (FileStorage.dispose), the CLI removes every folder of its process on SIGINT and SIGTERM (worker
 * threads share the pid, so theirs go too), and a process killed outright (SIGKILL, a power cut) leaves
 * folders that the next start sweeps: only marked ones, only on this host, only once the process that
 * made them is gone. A folder without the marker is never touched, whatever its name.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'faultlab-';
/** The marker's name inside each folder; its content says whose the folder is. */
export const TEMP_MARKER = '.faultlab-temp';
const OWN_NAME = /^faultlab-(\d+)-[A-Za-z0-9]{6}$/;

interface Marker {
  pid: number;
  host: string;
  purpose: string;
}

/** The temporary folder cannot be made: TMPDIR names no folder, or one faultlab may not write to. */
export class TempDirError extends Error {
  override readonly name = 'TempDirError';
  readonly code = 'TEMP_DIR';
  readonly base: string;

  constructor(base: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException).code ?? '';
    super(`cannot make a temporary folder in ${base} (the system's temporary folder; set TMPDIR to change it): ${code || (cause as Error).message}`, { cause });
    this.base = base;
  }
}

const made = new Set<string>();

/** A fresh, marked temporary folder; `purpose` goes in the marker, for whoever finds the folder. */
export function makeTempDir(purpose: string): string {
  const base = tmpdir();
  let dir: string;
  try {
    dir = mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
  } catch (error) {
    throw new TempDirError(base, error);
  }
  made.add(dir);
  try {
    writeFileSync(join(dir, TEMP_MARKER), `${JSON.stringify({ pid: process.pid, host: hostname(), purpose } satisfies Marker)}\n`);
  } catch (error) {
    removeTempDir(dir);
    throw new TempDirError(base, error);
  }
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  made.delete(dir);
}

function markerOf(dir: string): Marker | null {
  try {
    const marker = JSON.parse(readFileSync(join(dir, TEMP_MARKER), 'utf8')) as Partial<Marker>;
    return typeof marker.pid === 'number' && typeof marker.host === 'string' ? (marker as Marker) : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — alive all the same.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Remove the marked folders of this host for which `whose(pid)` holds; returns what was removed. */
function sweep(whose: (pid: number) => boolean): string[] {
  const base = tmpdir();
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return []; // no temporary folder at all: nothing to sweep (making one will say why it failed)
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = OWN_NAME.exec(name)?.[1];
    if (pid === undefined || !whose(Number(pid))) continue;
    const dir = join(base, name);
    const marker = markerOf(dir);
    if (marker === null || marker.pid !== Number(pid) || marker.host !== hostname()) continue;
    try {
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // someone else's permissions, or a race with another sweep: leave it
    }
  }
  return removed;
}

/** At start-up: remove the folders left by faultlab processes that are gone (killed before they could). */
export function sweepStaleTempDirs(): string[] {
  return sweep((pid) => pid !== process.pid && !isAlive(pid));
}

/** On the way out (a signal, an exit): every folder this process made, worker threads' included. */
export function removeOwnTempDirs(): void {
  for (const dir of [...made]) removeTempDir(dir);
  sweep((pid) => pid === process.pid);
}

/** Throws TempDirError now, before any work, if no temporary folder can be made. */
export function checkTempDir(): void {
  removeTempDir(makeTempDir('a check that temporary folders can be made'));
}
