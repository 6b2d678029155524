/**
 * `faultlab run [SCENARIO…]`: run scenarios, print each trace and a summary (or one JSON document).
 * Exit 0 when every check held, 1 when any failed, 2 for bad input.
 */
import { existsSync } from 'node:fs';
import { checkPostgres, checkPostgresRunner, namesFolder, dbShown, postgresFor } from '../postgresCheck.js';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAll, type Loaded } from '../../scenario/load.js';
import { SCENARIOS_DIR } from '../../core/paths.js';
import type { RunResult } from '../../check/RunResult.js';
import { DB_FILES } from '../../core/storage.js';
import { checkTempDir } from '../../core/tempDir.js';
import { simulate } from '../../sim/simulate.js';
import { KeptConnections, mayKeepConnections } from '../../sim/keptConnections.js';
import { usesLimits } from '../../scenario/types.js';
import { messageJson, runToJson } from '../../render/renderJson.js';
import { renderSummary, summaryRow, type SummaryRow } from '../../render/renderSummary.js';
import { renderRun } from '../../render/renderText.js';
import { BadInputError, chooseStyle, EXIT, UsageError, type Io } from '../io.js';
import { yieldToSignals } from '../interrupt.js';
import { claimKeepDir, type KeptFolder } from '../keepDb.js';
import { refuseRunnerOptions, runLabScenario } from '../labRun.js';
import { isRace, refuseRacesOnSqlite, runRaceScenario } from '../raceRun.js';
import { inThisLanguage, optionHelp, parseDb, parseSeed, parseStorage, parseWidth, sharedHelp, sharedParse } from '../options.js';
import { msg, t, word, type Lang, type Message } from '../../render/words/index.js';
import { loadRunnerOption } from '../runnerOption.js';
import { RunnerConstructorError } from '../../box/boxedRunner.js';
import { PLAIN as PLAIN_STYLE } from '../../render/style.js';
import { HtmlOut } from '../htmlOut.js';
import { renderRunHtml, renderTextPageHtml } from '../../render/html/index.js';
import { flow, GLUE } from '../../render/format.js';
import { judge } from '../../check/verdict.js';
import { titleOf } from '../../scenario/words.js';
import { shellWord } from '../../grade/replay.js';

/**
 * With no scenario named, `run` is the classroom demo: all 17 are run and summed up, but only these two
 * traces are shown in full — the chapter's moment (the tool committed, the reply was lost, the runner cannot
 * know) and its recovery twin. A class can follow two traces; 17 (800 lines) scroll past. `--all` shows every one.
 */
export const SHOWN_BY_DEFAULT = ['lost_reply', 'crash_after_commit'];

/** `faultlab run --help`, in the language of the command line. */
export function runHelp(lang: Lang): string {
  return [
    t(lang, 'help.run.head', { shown: SHOWN_BY_DEFAULT.join(t(lang, 'cli.and')) }),
    optionHelp('--all', t(lang, 'help.run.all')),
    sharedHelp(lang, 'seed', 'runner'),
    optionHelp('--quiet', t(lang, 'help.run.quiet')),
    sharedHelp(lang, 'json', 'no-color', 'width', 'html', 'storage', 'db'),
    optionHelp('--keep-db DIR', t(lang, 'help.run.keepDb')),
    sharedHelp(lang, 'lang'),
  ].join('\n');
}

export async function runCommand(argv: string[], io: Io, lang: Lang): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...sharedParse('seed', 'runner', 'json', 'no-color', 'storage', 'width', 'html', 'db'),
      quiet: { type: 'boolean', short: 'q' },
      all: { type: 'boolean' },
      'keep-db': { type: 'string' },
    },
  });
  const style = await chooseStyle(io, { noColor: values['no-color'], json: values.json });
  const seed = parseSeed(lang, values.seed);
  const db = parseDb(lang, values.db);
  const width = parseWidth(lang, values.width, io);
  const html = values.html !== undefined ? new HtmlOut(values.html, io.cwd, lang) : null;
  // The short default applies only to the demo (no scenario named): a scenario asked for by name is shown.
  const shown = (id: string) => !values.quiet && (values.all === true || positionals.length > 0 || SHOWN_BY_DEFAULT.includes(id));
  const keepDb = values['keep-db'];
  // Kept databases are files: --keep-db without --storage means --storage file.
  const storage = keepDb !== undefined && values.storage === undefined ? 'file' : parseStorage(lang, values.storage);
  let loaded = loadAll(positionals, { cwd: io.cwd });
  refuseRunnerOptions(lang, 
    [
      ...(values.runner !== undefined ? [`--runner ${values.runner}`] : []),
      ...(values.storage !== undefined ? [`--storage ${values.storage}`] : []),
      ...(keepDb !== undefined ? [`--keep-db ${keepDb}`] : []),
    ],
    loaded,
  );
  if (db.kind === 'sqlite') refuseRacesOnSqlite(lang, loaded);
  if (db.kind === 'postgres') {
    for (const one of loaded) if (one.type !== 'runner' && !isRace(one)) throw new BadInputError(t(lang, 'cli.db.scenarioNotYet', { given: dbShown(db), id: one.id, why: t(lang, 'cli.db.why.lab') }));
    // A scenario that runs on SQLite only is refused when named, and left out (said on stderr) of a folder's run.
    const folderRun = namesFolder(positionals, io.cwd);
    const runs = checkPostgres(lang, db, loaded.flatMap((one) => (one.type === 'runner' ? [one.scenario] : [])), { '--storage': values.storage, '--keep-db': keepDb }, { workers: true, ...(folderRun ? { skip: (said: string) => io.stderr.write(said + '\n') } : {}) });
    loaded = loaded.filter((one) => one.type !== 'runner' || runs.includes(one.scenario));
  }
  if (keepDb !== undefined) checkKeepable(lang, loaded);
  if (storage === 'file' && keepDb === undefined) checkTempDir();
  const resolved = await loadRunnerOption(lang, values.runner, io.cwd, (text) => io.stderr.write(text));
  if (db.kind === 'postgres') await checkPostgresRunner(lang, db, resolved);
  if (resolved.isWorker === true) {
    // The second exercise: a worker runs where several share a queue — by default every such scenario.
    if (positionals.length === 0) loaded = loadAll([join(SCENARIOS_DIR, 'workers')], { cwd: io.cwd });
    const alone = loaded.find((one) => one.type !== 'runner' || one.scenario.workers === undefined);
    if (alone !== undefined) {
      await resolved.close();
      throw new UsageError(t(lang, 'box.worker.notForScenario', { name: resolved.name, scenario: alone.type === 'runner' ? alone.scenario.id : alone.id }), { showHelp: false });
    }
  }
  let kept: KeptFolder | null = null;
  // The reference runner in memory runs every scenario on one pair of connections, restored to the scenario's
  // starting rows before each run (a crash still closes them): opening and preparing two databases per
  // scenario was about a sixth of `run --quiet` over the 17.
  const connections = db.kind === 'sqlite' && storage === 'memory' && keepDb === undefined && resolved.file === undefined && mayKeepConnections(resolved.runner, resolved.tool) ? new KeptConnections() : null;
  // On PostgreSQL: one server for the whole command (the embedded one, started now and stopped at the end, or
  // the user's), each scenario in a schema of its own there.
  let on: { url: string; close(): Promise<void> } | null = null;
  try {
    on = db.kind === 'postgres' ? await postgresFor(lang, db) : null;
    const postgres = on?.url ?? null;
    kept = keepDb !== undefined ? claimKeepDir(lang, keepDb, io.cwd) : null;
    const { runner, tool, label } = resolved;
    const queue = { ...(resolved.queue ? { queue: resolved.queue } : {}), ...(resolved.worker ? { worker: resolved.worker } : {}) };

    const rows: SummaryRow[] = [];
    const json: unknown[] = [];
    let runners = 0;
    const total = loaded.length;
    for (const [index, one] of loaded.entries()) {
      if (index > 0) await yieldToSignals();
      const position = `${index + 1}/${total}`;
      if (one.type === 'runner') {
        runners += 1;
        // Kept connections are for the chapter's scenarios: the pillars' stores, the queue's and the limits' tables are not restored.
        const shared = connections !== null && one.scenario.durability === undefined && one.scenario.workers === undefined && !usesLimits(one.scenario) ? { kept: connections } : {};
        const options = { runner, seed, storage, ...(tool ? { tool } : {}), ...queue, ...(kept ? { keepDir: kept.dir } : {}), ...shared, ...(postgres !== null ? { postgres } : {}) };
        // A learner's runner runs in its box (with the grader's determinism guard), so a replay shows what the grade saw.
        await resolved.beginRun();
        let outcome: { run: RunResult } | { failure: Message };
        try {
          outcome = await runOutside(async () => judge(await simulate(one.scenario, options)));
        } finally {
          await resolved.endRun(); // what the learner's code printed goes to stderr (loadRunnerOption)
        }
        if ('run' in outcome) {
          const run: RunResult = outcome.run;
          rows.push(summaryRow(run));
          if (values.json) json.push(runToJson(lang, run));
          else if (shown(run.scenario.id)) io.stdout.write(renderRun(run, style, { lang, position, width }) + '\n');
          html?.add(run.scenario.id, renderRunHtml(lang, run), { id: run.scenario.id, title: titleOf(run.scenario, lang), status: run.state?.status ?? 'none', passed: run.passed });
        } else {
          // The runner's code failed where the harness cannot catch it (its constructor): a failed run, not a crash.
          const said = msg('cli.run.runnerFailed', { failure: outcome.failure });
          const message = word(lang, said);
          rows.push({ id: one.scenario.id, status: 'runner_error', calls: '-', ledger: '-', stock: '', passed: false, broken: false, firstProblem: said });
          if (values.json) json.push({ id: one.scenario.id, status: 'runner_error', passed: false, violations: [{ check: 'runner_error', expected: 'no exception', actual: word('en', outcome.failure), ...messageJson(lang, said) }] });
          else if (!values.quiet) io.stdout.write(style.c.red(`━━ ${position} ${one.scenario.id} ━ ${message}`) + '\n\n');
        }
      } else {
        const result = isRace(one) ? await runRaceScenario(lang, one, postgres!) : runLabScenario(lang, one, seed);
        rows.push({ id: one.id, status: 'lab', calls: '-', ledger: '-', stock: '', passed: result.passed, broken: false, ...(result.firstProblem ? { firstProblem: result.firstProblem } : {}) });
        if (values.json) json.push(result.json);
        else if (shown(one.id)) io.stdout.write(result.render(style, position, width) + '\n');
        html?.add(one.id, renderTextPageHtml(lang, one.id, result.render(PLAIN_STYLE, position)), { id: one.id, title: t(lang, 'cli.run.labTitle'), status: 'lab', passed: result.passed });
      }
    }

    const passed = rows.filter((r) => r.passed).length;
    const failed = rows.length - passed;
    // Labs run without a Runner: the footer and the JSON name a runner only when one ran.
    const anyRunner = runners > 0;
    if (values.json) {
      io.stdout.write(JSON.stringify({ seed, runner: anyRunner ? label : null, scenarios: json, passed, failed }, null, 2) + '\n');
    } else {
      const who = !anyRunner ? t(lang, 'cli.run.who.labs') : runners < rows.length ? t(lang, 'cli.run.who.mixed', { label }) : t(lang, 'cli.run.who.runner', { label });
      io.stdout.write(renderSummary(lang, rows, style, t(lang, 'cli.run.footer', { seed, who, kept: keptNote(lang, kept, keepDb) }), width));
      const dim = (x: string) => style.c.dim(x);
      /** A command is never cut across two lines: it is meant to be copied (and answers in this language). */
      const cmd = (text: string) => inThisLanguage(lang, text).replaceAll(' ', GLUE);
      // On PostgreSQL the next commands stay there (a URL shown without its password).
      const onDb = db.kind === 'postgres' ? ` --db ${shellWord(dbShown(db))}` : '';
      if (positionals.length === 0 && !values.quiet && values.all !== true) {
        const hidden = rows.length - rows.filter((r) => SHOWN_BY_DEFAULT.includes(r.id)).length;
        const more = t(lang, 'cli.run.more', { hidden, all: cmd(`npx faultlab run --all${onDb}`), one: cmd(`npx faultlab run ID${onDb}`), html: '--html' + GLUE + 'DIR' });
        io.stdout.write(flow([[more, dim]], { width, indent: '  ', hang: '    ' }).join('\n') + '\n');
      }
      if (positionals.length === 0) {
        const next = t(lang, 'cli.run.next', { pillars: cmd(`npx faultlab run scenarios/pillars${onDb}`), grade: cmd(onDb === '' ? 'npm run grade' : `npm run grade --${onDb}`) });
        io.stdout.write(flow([[next, dim]], { width, indent: '  ', hang: '    ' }).join('\n') + '\n');
      }
    }
    if (html !== null) {
      const index = html.finish(t(lang, 'cli.run.pagesTitle', { count: rows.length }), t(lang, 'cli.run.pagesSubtitle', { seed, who: anyRunner ? t(lang, 'cli.run.who.runner', { label }) : t(lang, 'cli.run.who.labs') }), io.cwd);
      (values.json ? io.stderr : io.stdout).write(t(lang, 'cli.pages', { index }) + '\n');
    }
    return failed === 0 ? EXIT.ok : EXIT.failed;
  } finally {
    connections?.close();
    await resolved.close();
    kept?.release();
    await on?.close();
  }
}


/** --keep-db keeps a runner scenario's two databases; anything else has none to keep. */
function checkKeepable(lang: Lang, loaded: Loaded[]): void {
  if (loaded.length !== 1) throw new UsageError(t(lang, 'cli.run.keepDbOne', { count: loaded.length }));
  const [one] = loaded;
  if (one!.type !== 'runner') throw new BadInputError(t(lang, 'cli.run.keepDbKind', { id: one!.id, kind: one!.kind }));
}

/** Only what is really there is claimed: both database files in the kept folder. */
function keptNote(lang: Lang, kept: KeptFolder | null, given: string | undefined): string {
  if (kept === null) return '';
  const written = Object.values(DB_FILES).every((name) => existsSync(join(kept.dir, name)));
  return written ? t(lang, 'cli.run.kept', { dir: given!, files: Object.values(DB_FILES).join(', ') }) : t(lang, 'cli.run.keptNothing', { dir: given! });
}

/** A runner file's constructor failing ends its run as a failure; faultlab's own errors still throw. */
async function runOutside(work: () => Promise<RunResult>): Promise<{ run: RunResult } | { failure: Message }> {
  try {
    return { run: await work() };
  } catch (error) {
    if (error instanceof RunnerConstructorError) return { failure: msg('cli.run.constructorThrew', { what: error.what }) };
    throw error;
  }
}
