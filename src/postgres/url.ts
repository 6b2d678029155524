/**
 * Connection URLs, and which database a run's protocol runs on as `--db` names it. A unix socket is named
 * by its folder in the `host` parameter (`pg` reads it; an empty host part does not parse there), and the
 * embedded server's port is PostgreSQL's default, which then only names the socket file (.s.PGSQL.5432).
 */

/** The superuser initdb makes (-U), and the database every cluster starts with. */
export const SUPERUSER = 'postgres';
export const DEFAULT_DATABASE = 'postgres';

/** The URL of database `database` on a server listening on a unix socket in `folder`. */
export function socketUrl(folder: string, database = DEFAULT_DATABASE): string {
  return `postgresql://${SUPERUSER}@localhost:5432/${encodeURIComponent(database)}?host=${encodeURIComponent(folder)}`;
}

/** The same server's URL for another database (a test file's own). */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.href;
}

/** Which database: SQLite (the default), the embedded PostgreSQL, or a PostgreSQL server by URL. */
export type DbChoice = { kind: 'sqlite' } | { kind: 'postgres'; url: null } | { kind: 'postgres'; url: string };

/** Why a `--db` value is none: not a word it takes, a URL that does not parse, a URL that names no server. */
export type BadDb = 'value' | 'unparsable' | 'noHost';

/** `--db` as given: the choice, or why it is none. */
export function parseDbChoice(given: string): DbChoice | { bad: BadDb } {
  if (given === 'sqlite') return { kind: 'sqlite' };
  if (given === 'postgres') return { kind: 'postgres', url: null };
  if (!/^postgres(ql)?:\/\//.test(given)) return { bad: 'value' };
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return { bad: 'unparsable' };
  }
  if (url.hostname === '' && !url.searchParams.has('host')) return { bad: 'noHost' };
  return { kind: 'postgres', url: given };
}

/** A URL as faultlab repeats it (a refusal, an error): never its password. */
export function shownUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}
