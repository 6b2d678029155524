/**
 * `faultlab torture`: real worker processes on one SQLite file (or, with `--db postgres…`, one schema on a PostgreSQL
 * server: the embedded one started for the command, or the user's), real SIGKILLs and SIGSTOPs from a seed, and the
 * database checked after every kill and at the end (docs/spec.md §19; the driver is ../torture/driver.ts). Progress goes to
 * stderr; the table (or, with --json, the figures) to stdout. Exit 0 when every check held, 1 when one broke or a
 * worker broke off on its own, 2 bad input, 130/143 stopped by a signal — with every worker killed and the
 * temporary folder removed on every way out.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SEED } from '../../core/defaults.js';
import { checkTempDir } from '../../core/tempDir.js';
import { renderTorture, renderTortureProgress, tortureJson } from '../../render/torture.js';
import { t, type Lang } from '../../render/words/index.js';
import { sourceOf } from '../../target/runners.js';
import { tortureHeld } from '../../torture/report.js';
import { onStop } from '../interrupt.js';
import { BadInputError, chooseStyle, EXIT, UsageError, type Io } from '../io.js';
import { optionHelp, parseDb, parseSeed, sharedHelp, sharedParse } from '../options.js';
import { dbShown, postgresFor } from '../postgresCheck.js';
import { mutantNamed } from '../../mutants/catalogue.js';
import { torture } from '../torture/driver.js';
import { NoRunToJoin } from '../torture/processes.js';
import { shellWord } from '../../grade/replay.js';

/** A torture's schema on a server, as `--join` names it (src/postgres/storage.ts `runSchemaName`). */
const RUN_SCHEMA = /^faultlab_run_[0-9a-f]{6}_\d+_\d+_\d+$/;

/** The probe of ../shared/notes/postgres-here.md ran 4 workers with a 40 ms lease; the issue asks 1,000 kills. */
export const TORTURE_DEFAULTS = { workers: 4, kills: 1_000, leaseMs: 40 } as const;
const LIMITS = { workers: [1, 32], kills: [1, 1_000_000], pauses: [0, 1_000_000], 'lease-ms': [10, 60_000], 'tool-ms': [0, 60_000] } as const;

/** `faultlab torture --help`, in the language of the command line. */
export function tortureHelp(lang: Lang): string {
  return [
    t(lang, 'help.torture.head'),
    optionHelp('--workers N', t(lang, 'help.torture.workers', { workers: TORTURE_DEFAULTS.workers })),
    optionHelp('--kills N', t(lang, 'help.torture.kills', { kills: TORTURE_DEFAULTS.kills })),
    optionHelp('--pauses N', t(lang, 'help.torture.pauses')),
    optionHelp('--lease-ms N', t(lang, 'help.torture.lease', { ms: TORTURE_DEFAULTS.leaseMs })),
    optionHelp('--tool-ms N', t(lang, 'help.torture.tool')),
    optionHelp('--runner NAME', t(lang, 'help.torture.runner')),
    optionHelp('--seed N', t(lang, 'help.torture.seed', { seed: DEFAULT_SEED })),
    sharedHelp(lang, 'db'),
    optionHelp('--terminate-backends', t(lang, 'help.torture.terminateBackends')),
    optionHelp('--join SCHEMA', t(lang, 'help.torture.join')),
    sharedHelp(lang, 'json', 'no-color', 'lang'),
  ].join('\n');
}

function whole(lang: Lang, option: keyof typeof LIMITS, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const [min, max] = LIMITS[option];
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new UsageError(t(lang, 'cli.torture.badNumber', { option: `--${option}`, min, max, given: JSON.stringify(value) }));
  return n;
}

export async function tortureCommand(argv: string[], io: Io, lang: Lang): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...sharedParse('runner', 'seed', 'json', 'no-color', 'db'),
      workers: { type: 'string' },
      kills: { type: 'string' },
      pauses: { type: 'string' },
      'lease-ms': { type: 'string' },
      'tool-ms': { type: 'string' },
      'terminate-backends': { type: 'boolean' },
      join: { type: 'string' },
    },
  });
  const db = parseDb(lang, values.db);
  if (values['terminate-backends'] === true && db.kind !== 'postgres') throw new UsageError(t(lang, 'cli.torture.terminateNeedsPostgres'));
  if (values.join !== undefined && (db.kind !== 'postgres' || db.url === null)) throw new UsageError(t(lang, 'cli.torture.joinNeedsUrl'));
  if (values.join !== undefined && !RUN_SCHEMA.test(values.join)) throw new UsageError(t(lang, 'cli.torture.badJoin', { given: JSON.stringify(values.join) }));
  const workers = whole(lang, 'workers', values.workers, TORTURE_DEFAULTS.workers);
  const kills = whole(lang, 'kills', values.kills, TORTURE_DEFAULTS.kills);
  const pauses = whole(lang, 'pauses', values.pauses, Math.floor(kills / 2));
  const leaseMs = whole(lang, 'lease-ms', values['lease-ms'], TORTURE_DEFAULTS.leaseMs);
  const toolMs = whole(lang, 'tool-ms', values['tool-ms'], 0);
  const seed = parseSeed(lang, values.seed);
  const source = sourceOf(values.runner, io.cwd); // an unknown mutant is refused here, with the names it takes
  if (source.kind === 'file') throw new UsageError(t(lang, 'cli.torture.badRunner', { given: JSON.stringify(values.runner) }));
  const runner = source.kind === 'mutant' ? `mutant:${source.name}` : 'reference';
  // A queue that breaks SQLite's own locking has nothing to break on PostgreSQL (src/cli/postgresCheck.ts).
  if (db.kind === 'postgres' && source.kind === 'mutant' && (mutantNamed(source.name)?.queue as { sqliteOnly?: boolean } | undefined)?.sqliteOnly === true) {
    throw new BadInputError(t(lang, 'cli.db.sqliteForGood', { given: dbShown(db), id: runner, why: t(lang, 'cli.db.why.sqliteMutant') }));
  }
  const style = await chooseStyle(io, { noColor: values['no-color'], json: values.json });
  checkTempDir();

  // Progress: a line at the first kill and at every tenth of the plan, on stderr (stdout is the table's, or the JSON's).
  const step = Math.max(1, Math.ceil((kills + pauses) / 10));
  // On PostgreSQL: the embedded server started for the command (or the user's, checked to answer), stopped at its end.
  const server = db.kind === 'postgres' ? await postgresFor(lang, db) : null;
  let report;
  try {
    report = await torture({
      workers,
      kills,
      pauses,
      seed,
      leaseMs,
      toolMs,
      runner,
      onStop,
      onProgress: (p) => {
        const sent = p.kills + p.pauses;
        if (sent === 1 || sent % step === 0) io.stderr.write(`${renderTortureProgress(lang, p)}\n`);
      },
      ...(server !== null && db.kind === 'postgres'
        ? {
            postgres: {
              url: server.url,
              shown: dbShown(db),
              terminateBackends: values['terminate-backends'] === true,
              join: values.join ?? null,
              // A server of the user's can be reached from other machines: say how their workers join this run's queue.
              onSchema: (schema: string) => {
                if (db.url !== null) io.stderr.write(`${t(lang, 'torture.joinable', { command: `npx faultlab torture --db ${shellWord(dbShown(db))} --join ${schema}` })}\n`);
              },
            },
          }
        : {}),
    });
  } catch (error) {
    if (error instanceof NoRunToJoin) throw new BadInputError(t(lang, 'cli.torture.noRunToJoin', { schema: error.schema, given: db.kind === 'postgres' ? dbShown(db) : '' }));
    throw error;
  } finally {
    await server?.close();
  }
  io.stdout.write(values.json ? `${JSON.stringify(tortureJson(lang, report), null, 2)}\n` : `${renderTorture(lang, report, style)}\n`);
  return tortureHeld(report) ? EXIT.ok : EXIT.failed;
}
