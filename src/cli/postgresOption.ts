/**
 * `--db postgres…` at the edge: the embedded server started, or the user's checked to answer before anything
 * runs. Imported only when `--db` names PostgreSQL (postgresCheck.ts).
 */
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../postgres/server.js';
export { closeIdle } from '../postgres/storage.js';
import { t, type Lang } from '../render/words/index.js';
import { BadInputError } from './io.js';

export function startEmbedded(): Promise<EmbeddedPostgres> {
  return startEmbeddedPostgres();
}

/** The server answers at `url`, or the command stops here saying why (exit 2); `given` is the URL as it may be shown. */
export async function reachable(lang: Lang, url: string, given: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return url;
  } catch (error) {
    throw new BadInputError(t(lang, 'cli.db.cannotConnect', { given, problem: (error as Error).message || String(error) }));
  } finally {
    await client.end().catch(() => undefined);
  }
}
