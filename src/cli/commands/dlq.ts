/**
 * `faultlab dlq DIR [--replay ID]`: the dead letters a kept run left in DIR (`faultlab run SCENARIO --keep-db
 * DIR`), and the operator's replay of one of them — through a fresh runner, with the record's key, against
 * DIR's own databases. A replay is judged by the invariants over the whole log, the replay included: it must
 * never double an effect. Exit 0 listed / replayed and every invariant held, 1 an invariant broke, 2 bad input.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { brokenRules, judge } from '../../check/verdict.js';
import { isDurabilityError } from '../../durability/errors.js';
import { displayWidth, pad } from '../../render/format.js';
import { said, t, type Lang } from '../../render/words/index.js';
import { messageJson } from '../../render/renderJson.js';
import { renderRun } from '../../render/renderText.js';
import { shortKey } from '../../core/key.js';
import { keptDeadLetters, type KeptDeadLetter } from '../../sim/keptDeadLetters.js';
import { claimForReplay } from '../keepDb.js';
import { sqliteOnly } from '../postgresCheck.js';
import { replayDeadLetter } from '../../sim/simulate.js';
import { loadRunnerOption } from '../runnerOption.js';
import { chooseStyle, EXIT, UsageError, type Io } from '../io.js';
import { inThisLanguage, optionHelp, parseSeed, sharedHelp, sharedParse } from '../options.js';

/** `faultlab dlq --help`, in the language of the command line. */
export function dlqHelp(lang: Lang): string {
  return [t(lang, 'help.dlq.head'), optionHelp('--replay ID', t(lang, 'help.dlq.replay')), sharedHelp(lang, 'runner', 'seed', 'json', 'no-color', 'lang')].join('\n');
}


export async function dlqCommand(argv: string[], io: Io, lang: Lang): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...sharedParse('runner', 'seed', 'json', 'no-color', 'db'), replay: { type: 'string' } } });
  sqliteOnly(lang, values.db, 'cli.db.dlqKeptFiles'); // a kept run's databases are SQLite files
  if (positionals.length !== 1) throw new UsageError(t(lang, 'cli.dlq.oneFolder'));
  const dir = resolve(io.cwd, positionals[0]!);
  const style = await chooseStyle(io, { noColor: values['no-color'], json: values.json });
  const seed = parseSeed(lang, values.seed);
  let letters;
  try {
    letters = keptDeadLetters(dir);
  } catch (error) {
    if (isDurabilityError(error)) throw new UsageError(said(lang, error.said ?? error.message));
    throw error;
  }

  if (values.replay === undefined) {
    if (values.json) {
      io.stdout.write(JSON.stringify(letters.map(({ scenario, ...row }) => ({ ...row, scenario: scenario.id })), null, 2) + '\n');
      return EXIT.ok;
    }
    if (letters.length === 0) {
      io.stdout.write(t(lang, 'cli.dlq.none', { dir: positionals[0]! }) + '\n');
      return EXIT.ok;
    }
    const rows = letters.map((l) => [l.dlqId, l.status, l.scenario.id, `${l.action} ${l.key === null ? t(lang, 'cli.dlq.noKey') : shortKey(l.key)}`, String(l.attempts), l.lastError]);
    const head = (['id', 'status', 'scenario', 'intent', 'attempts', 'lastError'] as const).map((name) => t(lang, `cli.dlq.head.${name}`));
    const widths = head.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i]!))) + 2);
    const line = (cells: string[]) => `  ${cells.map((cell, i) => (i === cells.length - 1 ? cell : pad(cell, widths[i]!))).join('')}`;
    io.stdout.write(style.c.bold(line(head)) + '\n');
    for (const row of rows) io.stdout.write(line(row) + '\n');
    const pending = letters.filter((l) => l.status === 'pending');
    if (pending.length > 0) io.stdout.write(style.c.dim(`\n  ${t(lang, 'cli.dlq.replayOne', { command: inThisLanguage(lang, `faultlab dlq ${positionals[0]} --replay ${pending[0]!.dlqId}`) })}`) + '\n');
    return EXIT.ok;
  }

  const id = values.replay;
  if (!letters.some((l) => l.dlqId === id)) {
    throw new UsageError(t(lang, 'cli.dlq.noSuchLetter', { id, dir: positionals[0]!, kept: letters.map((l) => l.dlqId).join(', ') || t(lang, 'cli.dlq.keptNone') }));
  }
  // One replay of the folder at a time: a second, started at once, is refused; one started after the first ended
  // reads the record again and finds it replayed.
  const claimed = claimForReplay(lang, dir, (why) => new UsageError(t(lang, 'cli.dlq.busy', { id, dir: positionals[0]!, why }), { showHelp: false }));
  try {
    return await replay(keptDeadLetters(dir).find((l) => l.dlqId === id)!, { lang, dir, id, seed, values, io, style });
  } finally {
    claimed.release();
  }
}

interface ReplayOptions {
  lang: Lang;
  dir: string;
  id: string;
  seed: number;
  values: { runner?: string; json?: boolean };
  io: Io;
  style: Awaited<ReturnType<typeof chooseStyle>>;
}

async function replay(letter: KeptDeadLetter, { lang, dir, id, seed, values, io, style }: ReplayOptions): Promise<number> {
  if (letter.status !== 'pending') throw new UsageError(t(lang, 'cli.dlq.notPending', { id, status: letter.status }));
  const opened = await loadRunnerOption(lang, values.runner, io.cwd, (text) => io.stderr.write(text));
  const { runner, tool } = opened;
  // A replay is held to the rules: the scenario's figures describe its first delivery, not this one.
  const scenario = { ...letter.scenario, faults: [], expect: {} };
  let run;
  try {
    await opened.beginRun();
    try {
      run = judge(await replayDeadLetter(scenario, { dir, dlqId: letter.dlqId }, { runner, seed, ...(tool ? { tool } : {}) }));
    } finally {
      await opened.endRun();
    }
  } finally {
    await opened.close();
  }
  const broken = brokenRules(run);
  if (values.json) {
    io.stdout.write(JSON.stringify({ dlqId: letter.dlqId, status: run.state?.status ?? null, dlq: run.dlq.map((r) => ({ dlqId: r.dlqId, status: r.status })), ledger: run.db.ledger.length, passed: broken.length === 0, violations: broken.map((c) => ({ check: c.id, ...messageJson(lang, c.message) })) }, null, 2) + '\n');
  } else {
    io.stdout.write(renderRun(run, style, { lang, position: 'replay' }) + '\n');
  }
  return broken.length === 0 ? EXIT.ok : EXIT.failed;
}
