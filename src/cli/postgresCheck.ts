/**
 * `--db postgres…` for the commands that run scenarios (run, explore): what runs there for now, checked before
 * anything runs, and the server for the command — the embedded one, started and stopped with it, or the user's,
 * checked to answer. The PostgreSQL client itself is loaded only then (postgresOption.ts): a command on SQLite
 * never loads it (~40 ms of CPU on every start).
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
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

/** A scenario that teaches SQLite's own locking (BEGIN IMMEDIATE against a deferred upgrade): SQLite's for good. */
export const SQLITE_ONLY_TAG = 'sqlite-only';

/**
 * What runs on PostgreSQL: one runner's scenarios, the chapter's, the limits' and the pillars', and the many-worker
 * scenarios (`workers`: the commands that run them with the reference queue or a broken one); SQLite's own options
 * (`options`: the flag and its value, if given) mean nothing there. A scenario tagged `sqlite-only` is refused — or,
 * with `skip` (a directory run), left out and said there. Returns what runs.
 */
export function checkPostgres(
  lang: Lang,
  db: DbChoice & { kind: 'postgres' },
  scenarios: readonly Scenario[],
  options: Record<string, string | undefined>,
  how: { workers?: boolean; skip?: (said: string) => void } = {},
): Scenario[] {
  const given = dbShown(db);
  for (const [option, value] of Object.entries(options)) {
    if (value !== undefined) throw new UsageError(t(lang, 'cli.db.sqliteOnly', { given, option }));
  }
  const kept: Scenario[] = [];
  for (const scenario of scenarios) {
    const why = scenario.workers !== undefined && how.workers !== true ? 'cli.db.why.workers' : null;
    if (why !== null) throw new BadInputError(t(lang, 'cli.db.scenarioNotYet', { given, id: scenario.id, why: t(lang, why) }));
    if (scenario.tags.includes(SQLITE_ONLY_TAG)) {
      const said = { given, id: scenario.id, why: t(lang, 'cli.db.why.sqliteLesson') };
      if (how.skip === undefined) throw new BadInputError(t(lang, 'cli.db.sqliteForGood', said));
      how.skip(t(lang, 'cli.db.skipped', said));
      continue;
    }
    kept.push(scenario);
  }
  return kept;
}

/** A command's targets name a folder (a directory run: a scenario that runs on SQLite only is left out, not refused). */
export function namesFolder(targets: readonly string[], cwd: string): boolean {
  return targets.some((target) => statSync(resolve(cwd, target), { throwIfNoEntry: false })?.isDirectory() === true);
}

/**
 * A runner option that cannot run on PostgreSQL: a learner's worker (its SQL is SQLite's), a queue mutant that breaks
 * SQLite's own locking. Refused with the runner closed (a learner's box ends).
 */
export async function checkPostgresRunner(lang: Lang, db: DbChoice & { kind: 'postgres' }, runner: { isWorker?: boolean; queue?: unknown; label: string; close(): Promise<void> }): Promise<void> {
  const given = dbShown(db);
  const refusal =
    runner.isWorker === true
      ? t(lang, 'cli.db.scenarioNotYet', { given, id: runner.label, why: t(lang, 'cli.db.why.learnerWorker') })
      : (runner.queue as { sqliteOnly?: boolean } | undefined)?.sqliteOnly === true
        ? t(lang, 'cli.db.sqliteForGood', { given, id: runner.label, why: t(lang, 'cli.db.why.sqliteMutant') })
        : null;
  if (refusal === null) return;
  await runner.close();
  throw new BadInputError(refusal);
}

/**
 * `--db` for a command that runs on SQLite only (dlq): sqlite, the default, is taken; PostgreSQL is refused
 * before anything runs, in the command's sentence saying why (exit 2).
 */
export function sqliteOnly(lang: Lang, value: string | undefined, refusal: 'cli.db.dlqKeptFiles'): void {
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
