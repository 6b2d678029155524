/**
 * The crash model — the one module that says what a crash does to a database, used by everything that
 * crashes: the simulator's two databases (the tool's and the runner's event log), the pillars' stores, the
 * labs.
 *
 * A crash drops the connection. SQLite rolls back whatever transaction was open, so only committed data
 * survives; a new connection then opens on what is left. With a file this is literal: close, open the same
 * file. An in-memory database has no file to reopen, so its crash rolls back the open transaction (as
 * SQLite does with a hot journal at the next open), serialises the committed image, closes, and opens a
 * new connection on that image. Either way nothing uncommitted survives, and recovery reads only what was
 * committed. A crash is only ever simulated between two statements (the process is single-threaded): the
 * harness throws a Crash where the fault strikes, and whatever transaction was open is rolled back here.
 *
 * Exploration may lend a run two open connections kept from the thread's earlier runs, their content first
 * restored to exactly the committed rows the run starts from (src/sim/keptConnections.ts). A crash treats
 * them like any others: closed, and the run goes on with new connections on their committed images.
 */
import Database from 'better-sqlite3';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteSql, type SqlConnection } from './sql.js';
import { makeTempDir, removeTempDir } from './tempDir.js';

export type Db = Database.Database;

export type StorageKind = 'file' | 'memory';

/** Where a run's databases are: SQLite in files or in memory, or a schema of its own on a PostgreSQL server. */
export type DatabaseKind = StorageKind | 'postgres';

export interface OpenOptions {
  /**
   * Several connections on one file (the labs' check-and-record race): a WAL journal and normal locking,
   * so they take turns per transaction. Otherwise one connection owns the file for its whole life.
   */
  shared?: boolean;
  /** How long a shared connection waits for another's write lock before SQLITE_BUSY, in real ms (default 5000). */
  busyTimeoutMs?: number;
}

/**
 * A file database. Not shared: a rollback journal (TRUNCATE: reused, not deleted) with synchronous=OFF
 * and the lock held for the connection's life. The journal reaches the OS before any page changes, so a
 * crash of the *process* — the crash faultlab simulates — loses nothing committed and rolls back the rest.
 * Skipping fsync only risks the last commits on a power cut, which no scenario models; it makes a run
 * several times faster (measured: 17 runs' databases in ~25 ms instead of ~950 ms with FULL).
 */
export function openDatabase(path = ':memory:', options: OpenOptions = {}): Db {
  const db = new Database(path, { timeout: options.busyTimeoutMs ?? 5_000 });
  if (path === ':memory:') return db;
  if (options.shared) {
    db.pragma('journal_mode = WAL');
    return db;
  }
  db.pragma('journal_mode = TRUNCATE');
  db.pragma('synchronous = OFF');
  // A crashed process releases its lock, as a real one's is released by the OS.
  db.pragma('locking_mode = EXCLUSIVE');
  return db;
}

/** Roll back what was not committed, keep the committed image, close. */
function committedImage(db: Db): Buffer {
  if (db.inTransaction) db.exec('ROLLBACK');
  const image = db.serialize();
  db.close();
  return image;
}

/**
 * One database's crash, then a new connection on what was committed: the same file, or the committed image
 * of an in-memory database.
 */
export function crashAndReopen(db: Db, options: OpenOptions = {}): Db {
  if (db.memory) return new Database(committedImage(db), { timeout: options.busyTimeoutMs ?? 5_000 });
  const path = db.name;
  db.close();
  return openDatabase(path, options);
}

/**
 * The two databases of a simulated run as the protocol meets them, on either database, and what a crash does
 * to them (both die together: one process). On PostgreSQL (src/postgres/storage.ts) a crash really closes both
 * connections — the server rolls back what they had not committed — and `reopen` connects anew.
 */
export interface RunDatabases {
  readonly kind: DatabaseKind;
  /** The folder holding the database files (file storage only). */
  readonly dir: string | null;
  /** Where the databases are kept after the run (`--keep-db`), or null when nothing is kept. */
  readonly keptIn: string | null;
  /** The tool's connection, as the protocol runs on it (src/core/sql.ts). */
  readonly toolSql: SqlConnection;
  /** The runner's event log's connection. */
  readonly eventsSql: SqlConnection;
  /** Drop both connections; uncommitted work is lost. */
  crash(): void;
  /** New connections on what was committed. */
  reopen(): void | Promise<void>;
  /** End of run: close, and remove the files (or the schema) unless asked to keep them. */
  dispose(): void | Promise<void>;
}

/** The two SQLite databases of a simulated run: the connections themselves, for what runs on SQLite only (the explorer's checkpoints). */
export interface Storage extends RunDatabases {
  readonly kind: StorageKind;
  readonly toolDb: Db;
  readonly eventsDb: Db;
  reopen(): void;
  dispose(): void;
}

/** A run's databases on SQLite, or null (on PostgreSQL). */
export function sqliteStorage(databases: RunDatabases): Storage | null {
  return databases.kind === 'postgres' ? null : (databases as Storage);
}

/** The two files a run's databases are, in a temporary folder or a kept one. */
export const DB_FILES = { tool: 'tool.db', events: 'events.db' } as const;

/** Every file SQLite may make beside a database (journals), by database file name. */
export const DB_SIDE_FILES = ['-journal', '-wal', '-shm'] as const;

/** Remove a folder's run databases (and their journals), so a kept folder starts from empty ones. */
export function clearDatabases(dir: string): void {
  for (const name of Object.values(DB_FILES)) for (const suffix of ['', ...DB_SIDE_FILES]) rmSync(join(dir, name + suffix), { force: true });
}

export interface StorageOptions {
  /**
   * Keep the databases in this existing folder, which the caller has claimed for this run alone (the CLI's
   * --keep-db). File storage runs in it; memory storage writes its databases' images there at the end.
   */
  keepDir?: string;
  /** With keepDir: open the databases already there instead of starting from empty ones. */
  reuse?: boolean;
}

export class FileStorage implements Storage {
  readonly kind = 'file';
  readonly dir: string;
  readonly keptIn: string | null;
  #tool: Db;
  #events: Db;

  constructor(options: StorageOptions = {}) {
    this.keptIn = options.keepDir ?? null;
    this.dir = options.keepDir ?? makeTempDir('run');
    // A kept folder is reused run after run: start from empty databases, not the last run's — unless the
    // point is to open what a kept run left (`reuse`: `faultlab dlq --replay` carries its dead letter on).
    if (options.keepDir !== undefined && options.reuse !== true) clearDatabases(this.dir);
    let tool: Db | undefined;
    try {
      tool = openDatabase(join(this.dir, DB_FILES.tool));
      this.#events = openDatabase(join(this.dir, DB_FILES.events));
    } catch (error) {
      tool?.close();
      if (this.keptIn === null) removeTempDir(this.dir);
      throw error;
    }
    this.#tool = tool;
  }

  get toolDb(): Db {
    return this.#tool;
  }

  get eventsDb(): Db {
    return this.#events;
  }

  get toolSql(): SqlConnection {
    return SqliteSql.of(this.#tool);
  }

  get eventsSql(): SqlConnection {
    return SqliteSql.of(this.#events);
  }

  crash(): void {
    if (this.#tool.open) this.#tool.close();
    if (this.#events.open) this.#events.close();
  }

  reopen(): void {
    this.crash();
    this.#tool = openDatabase(join(this.dir, DB_FILES.tool));
    this.#events = openDatabase(join(this.dir, DB_FILES.events));
  }

  dispose(): void {
    this.crash();
    if (this.keptIn === null) removeTempDir(this.dir);
  }
}

/** The committed images of the two databases: what a crash leaves, and what a run may start from. */
export interface StorageImages {
  readonly tool: Buffer;
  readonly events: Buffer;
}

/** Two open connections lent to one run, neither inside a transaction. */
export interface LentConnections {
  readonly tool: Db;
  readonly events: Db;
  /** At the end of the run: the connections alive then — the lent ones, or those a crash opened in their place. */
  giveBack(tool: Db, events: Db): void;
}

export interface MemoryStorageOptions {
  /** Open both databases on these committed images. */
  from?: StorageImages;
  /** Or run on these connections; `dispose` gives back the ones alive instead of closing them. */
  lent?: LentConnections;
}

export class MemoryStorage implements Storage {
  readonly kind = 'memory';
  readonly dir = null;
  readonly keptIn: string | null;
  #tool: Db;
  #events: Db;
  #images: StorageImages | null = null;
  readonly #lent: LentConnections | null;

  /**
   * Empty databases, new connections on committed images (`from`), or lent connections. A run forks its
   * starting databases from images built once, exactly as a crash reopens on what was committed; the images
   * are copied into each new connection, so one image serves any number of runs and none can change it.
   */
  constructor(options: StorageOptions & MemoryStorageOptions = {}) {
    const { from, lent } = options;
    this.keptIn = options.keepDir ?? null;
    this.#lent = lent ?? null;
    this.#tool = lent?.tool ?? (from ? new Database(from.tool) : openDatabase());
    this.#events = lent?.events ?? (from ? new Database(from.events) : openDatabase());
  }

  get toolDb(): Db {
    return this.#tool;
  }

  get eventsDb(): Db {
    return this.#events;
  }

  get toolSql(): SqlConnection {
    return SqliteSql.of(this.#tool);
  }

  get eventsSql(): SqlConnection {
    return SqliteSql.of(this.#events);
  }

  crash(): void {
    if (!this.#tool.open) return;
    this.#images = { tool: committedImage(this.#tool), events: committedImage(this.#events) };
  }

  reopen(): void {
    if (this.#tool.open) this.crash();
    const images = this.#images!;
    this.#tool = new Database(images.tool);
    this.#events = new Database(images.events);
    this.#images = null;
  }

  /**
   * Close; with a kept folder, first write each database's committed image there as a SQLite file; with lent
   * connections, give back the ones alive (a crash may have replaced them) instead of closing them.
   */
  dispose(): void {
    if (this.keptIn !== null) {
      if (!this.#tool.open) this.reopen(); // a run that ended in a crash still has its committed images
      clearDatabases(this.keptIn);
      writeFileSync(join(this.keptIn, DB_FILES.tool), committedImage(this.#tool));
      writeFileSync(join(this.keptIn, DB_FILES.events), committedImage(this.#events));
    }
    const [tool, events] = [this.#tool, this.#events];
    if (this.#lent !== null && tool.open && events.open && !tool.inTransaction && !events.inTransaction) {
      this.#lent.giveBack(tool, events);
      return;
    }
    if (tool.open) tool.close();
    if (events.open) events.close();
  }
}

export function openStorage(kind: StorageKind, options: StorageOptions & MemoryStorageOptions = {}): Storage {
  return kind === 'memory' ? new MemoryStorage(options) : new FileStorage(options);
}

/**
 * One process's connection to a database many share: WAL, no busy timeout (a statement that meets another's write
 * lock gets SQLITE_BUSY at once, and its caller decides how to wait), synchronous OFF. The simulated workers and the
 * real ones of `faultlab torture` (src/cli/torture) open theirs the same way.
 */
export function openShared(path: string): Db {
  const db = openDatabase(path, { shared: true, busyTimeoutMs: 0 });
  db.pragma('synchronous = OFF'); // a process crash loses nothing committed (see openDatabase); only a power cut could
  return db;
}

/**
 * Many processes on one database (the many-worker scenarios): one file in WAL mode, every process with its own
 * connection, so a crash closes only the crashed process's connection — SQLite rolls back what it had not
 * committed — and the others go on. In-memory databases cannot be shared honestly between connections: only
 * through the shared cache, which locks table by table and answers SQLITE_LOCKED where a file answers
 * SQLITE_BUSY — another protocol. So many workers always run on a file. No busy timeout: a connection that meets
 * another's write lock gets SQLITE_BUSY at once, and the harness makes it wait its turn (a timeout would block the
 * one thread every actor runs in).
 */
export class SharedDatabase {
  readonly dir: string;
  readonly path: string;
  readonly keptIn: string | null;
  readonly #open = new Set<Db>();

  constructor(options: StorageOptions = {}) {
    this.keptIn = options.keepDir ?? null;
    this.dir = options.keepDir ?? makeTempDir('run');
    if (options.keepDir !== undefined) clearDatabases(this.dir);
    this.path = join(this.dir, DB_FILES.tool);
  }

  /** A new connection of its own (a process starting, or starting again after a crash). */
  connect(): Db {
    const db = openShared(this.path);
    this.#open.add(db);
    return db;
  }

  /** One process's crash: its connection closes, and whatever it had not committed is rolled back. */
  crash(db: Db): void {
    if (db.open) db.close();
    this.#open.delete(db);
  }

  /** End of run: every connection closed, the folder removed unless kept. */
  dispose(): void {
    for (const db of this.#open) if (db.open) db.close();
    this.#open.clear();
    if (this.keptIn === null) removeTempDir(this.dir);
  }
}
