/**
 * `--keep-db DIR`: the run's two SQLite databases are left in DIR to inspect. DIR is claimed for one run
 * at a time (a lock, below), so two runs started at once on one folder cannot clobber each other's
 * databases: the second is refused with a message (exit 2). A folder holding anything but faultlab's
 * databases is refused too: --keep-db never deletes a file it did not make.
 *
 * DIR is made if it does not exist, but only DIR itself: its parent must exist (a recursive mkdir on
 * some paths, /proc/self/x among them, never returns).
 */
import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isBusy } from '../core/busy.js';
import { DB_FILES, DB_SIDE_FILES, type Db } from '../core/storage.js';
import { t, type Lang } from '../render/words/index.js';
import { onStop } from './interrupt.js';
import { BadInputError } from './io.js';

const LOCK = '.faultlab-lock';

/** What a kept folder may hold: the databases, their journals, the lock. */
const OURS = new Set(ourFiles());

function ourFiles(): string[] {
  return [...Object.values(DB_FILES), LOCK].flatMap((name) => ['', ...DB_SIDE_FILES].map((suffix) => name + suffix));
}

export interface KeptFolder {
  /** Absolute path of the folder. */
  dir: string;
  /** Give the folder back (release the lock); done on any exit too. */
  release(): void;
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String((error as Error).message);

export function claimKeepDir(lang: Lang, given: string, cwd: string): KeptFolder {
  if (given === '') throw new BadInputError(t(lang, 'cli.keepDb.needsFolder'));
  const dir = resolve(cwd, given);
  const refuse = (why: string) => new BadInputError(t(lang, 'cli.keepDb.refused', { given, why }));
  let exists = true;
  try {
    if (!statSync(dir).isDirectory()) throw refuse(t(lang, 'cli.keepDb.isFile'));
  } catch (error) {
    if (error instanceof BadInputError) throw error;
    if (code(error) !== 'ENOENT') throw refuse(t(lang, 'cli.keepDb.cannotUse', { code: code(error) }));
    exists = false;
  }
  if (!exists) {
    try {
      if (!statSync(dirname(dir)).isDirectory()) throw refuse(t(lang, 'cli.keepDb.parentNotFolder', { parent: dirname(dir) }));
    } catch (error) {
      if (error instanceof BadInputError) throw error;
      throw refuse(t(lang, 'cli.keepDb.noParent', { parent: dirname(dir) }));
    }
    try {
      mkdirSync(dir);
    } catch (error) {
      if (code(error) !== 'EEXIST') throw refuse(t(lang, 'cli.keepDb.cannotMake', { code: code(error) }));
    }
  }
  // Looked at before the lock is taken, so a refused folder is left exactly as it was.
  let others: string[];
  try {
    others = readdirSync(dir).filter((name) => !OURS.has(name));
  } catch (error) {
    throw refuse(t(lang, 'cli.keepDb.cannotRead', { code: code(error) }));
  }
  if (others.length > 0) {
    const files = `${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}`;
    throw refuse(t(lang, 'cli.keepDb.othersFiles', { files, tool: DB_FILES.tool, events: DB_FILES.events }));
  }
  const lock = takeLock(lang, dir, refuse);
  const release = () => {
    if (lock.open) lock.close();
  };
  const unregister = onStop(release);
  return {
    dir,
    release() {
      release();
      unregister();
    },
  };
}

/**
 * The lock is SQLite's own: a small database in the folder, held in an EXCLUSIVE transaction for the whole
 * run. The operating system releases it when the process ends, however it ends (a SIGKILL included), so a
 * lock is never stale; and the file is never deleted, so two processes can never lock two different files.
 */
function takeLock(lang: Lang, dir: string, refuse: (why: string) => Error): Db {
  let db: Db | undefined;
  try {
    db = new Database(join(dir, LOCK), { timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (error) {
    db?.close();
    if (isBusy(error)) throw refuse(t(lang, 'cli.keepDb.inUse'));
    throw refuse(t(lang, 'cli.keepDb.cannotLock', { code: code(error) }));
  }
}
