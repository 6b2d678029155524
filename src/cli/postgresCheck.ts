/**
 * `--db postgres…` for the commands that run scenarios (run, explore): what runs there for now, checked before
 * anything runs, and the server for the command — the embedded one, started and stopped with it, or the user's,
 * checked to answer. The PostgreSQL client itself is loaded only then (postgresOption.ts): a command on SQLite
 * never loads it (~40 ms of CPU on every start).
 */
import type { DbChoice } from '../postgres/url.js';
import { shownUrl } from '../postgres/url.js';
import type { Scenario } from '../scenario/types.js';
import { t, type Lang } from '../render/words/index.js';
import { BadInputError, UsageError } from './io.js';
import { parseDb } from './options.js';

/** `--db` as a refusal may repeat it: `postgres`, or the URL without its password. */
export function dbShown(db: DbChoice & { kind: 'postgres' }): string {
  return db.url === null ? 'postgres' : shownUrl(db.url);
}

/**
 * One runner's scenarios, the chapter's, the limits' and the pillars', run on PostgreSQL; the workers' queue is
 * SQLite's still, and SQLite's own options (`options`: the flag and its value, if given) mean nothing there.
 */
export function checkPostgres(lang: Lang, db: DbChoice & { kind: 'postgres' }, scenarios: readonly Scenario[], options: Record<string, string | undefined>): void {
  const given = dbShown(db);
  for (const [option, value] of Object.entries(options)) {
    if (value !== undefined) throw new UsageError(t(lang, 'cli.db.sqliteOnly', { given, option }));
  }
  for (const scenario of scenarios) {
    const why = scenario.workers !== undefined ? 'cli.db.why.workers' : null;
    if (why !== null) throw new BadInputError(t(lang, 'cli.db.scenarioNotYet', { given, id: scenario.id, why: t(lang, why) }));
  }
}

/**
 * `--db` for a command that runs on SQLite only (dlq, torture): sqlite, the default, is taken; PostgreSQL is refused
 * before anything runs, in the command's sentence saying why (exit 2).
 */
export function sqliteOnly(lang: Lang, value: string | undefined, refusal: 'cli.db.dlqKeptFiles' | 'cli.db.tortureNotYet'): void {
  const db = parseDb(lang, value);
  if (db.kind === 'postgres') throw new BadInputError(t(lang, refusal, { given: dbShown(db) }));
}

/** The command's server: its URL, and what to do at the command's end (idle schemas dropped, an embedded server stopped). */
export async function postgresFor(lang: Lang, db: DbChoice & { kind: 'postgres' }): Promise<{ url: string; close(): Promise<void> }> {
  const edge = await import('./postgresOption.js');
  const server = db.url === null ? await edge.startEmbedded() : null;
  try {
    const url = await edge.reachable(lang, db.url ?? server!.url, dbShown(db));
    return {
      url,
      close: async () => {
        await edge.closeIdle().catch(() => undefined); // before the server stops
        await server?.stop();
      },
    };
  } catch (error) {
    await server?.stop();
    throw error;
  }
}
