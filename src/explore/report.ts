/**
 * What `faultlab explore` shows: a table per scenario, the fault coverage, and each violation with its
 * minimal schedule and the command that replays it — or one JSON document. Pure: the CLI passes in the
 * style, the timing and where the replays were written.
 */
import { INVARIANTS } from '../check/invariants.js';
import { describeFaults } from '../faults/types.js';
import { pad, padStart, wrap } from '../render/format.js';
import type { Style } from '../render/style.js';
import type { Exploration } from './explore.js';
import type { Finding } from './findings.js';
import type { MutantHunt } from './mutants.js';
import { describeSchedule, EXPLORED_KINDS } from './schedule.js';

export interface Replayed {
  finding: Finding;
  /** The command that replays it (the file is written by then). */
  replay: string;
}

export interface ExploreHeader {
  runner: string;
  workers: number;
  seconds?: number;
}

export function explorationJson(exploration: Exploration, replayed: Replayed[], header: ExploreHeader) {
  const { total } = exploration;
  return {
    runs: total.total,
    violations: replayed.map(({ finding, replay }) => ({
      scenario: finding.scenario.id,
      schedule: finding.minimal,
      invariant: finding.invariant,
      message: finding.message,
      replay,
      found: finding.found,
      schedules: finding.schedules,
    })),
    outcomes: Object.fromEntries(exploration.scenarios.map(({ scenario, tally }) => [scenario.id, Object.fromEntries(tally.outcomes)])),
    coverage: { ...total.fired },
    planned: { ...total.planned },
    depth: exploration.depth,
    runner: header.runner,
    seed: exploration.seed,
  };
}

export function renderExploration(exploration: Exploration, replayed: Replayed[], header: ExploreHeader, style: Style): string {
  const { c } = style;
  const { total } = exploration;
  const lines: string[] = [];
  const storage = exploration.storage === 'memory' ? 'in-memory SQLite' : 'SQLite files';
  // The id column fits the longest id: a long id never runs into the next column.
  const idWidth = Math.max(27, ...exploration.scenarios.map(({ scenario }) => scenario.id.length + 2));
  lines.push(
    c.bold(`faultlab explore`) + c.dim(` — ${header.runner} runner, depth ${exploration.depth}, seed ${exploration.seed}, ${storage}, ${header.workers} worker${header.workers === 1 ? '' : 's'}`),
    '',
    c.bold(`  ${padStart('#', 2)}  ${pad('scenario', idWidth)}${padStart('schedules', 10)}${padStart('outcomes', 10)}${padStart('fired', 11)}  violations`),
  );
  for (const { scenario, tally } of exploration.scenarios) {
    const added = tally.total - (tally.runs[0] ?? 0);
    const fired = Object.values(tally.fired).reduce((a, b) => a + b, 0);
    const planned = Object.values(tally.planned).reduce((a, b) => a + b, 0);
    const broken = [...tally.violations.values()].reduce((a, v) => Math.max(a, v.schedules), 0);
    const verdict = tally.violations.size === 0 ? c.green('0') : c.red(`${broken} (${[...tally.violations.keys()].map(short).join(', ')})`);
    lines.push(
      `  ${padStart(scenario.order !== undefined ? String(scenario.order) : '', 2)}  ${pad(scenario.id, idWidth)}${padStart(String(added + 1), 10)}${padStart(String(tally.outcomes.size), 10)}${padStart(`${fired}/${planned}`, 11)}  ${verdict}`,
    );
  }
  const [asWritten = 0, one = 0, two = 0] = total.runs;
  const parts = [`${asWritten} scenario${asWritten === 1 ? '' : 's'} as written`, `${one} with one added fault`, ...(two > 0 ? [`${two} with two`] : [])];
  const time = header.seconds !== undefined ? ` in ${header.seconds.toFixed(2)} s (${Math.round(total.total / header.seconds)} schedules/s)` : '';
  lines.push('', `  ${total.total} schedules (${parts.join(', ')})${time}`);

  lines.push('', c.bold('  Fault coverage') + c.dim(' — added faults that really fired, of those added:'));
  for (const kind of EXPLORED_KINDS) {
    const unreached = total.unreached[kind];
    const preempted = total.planned[kind] - total.fired[kind] - unreached;
    const notes = [
      ...(unreached > 0 ? [`${unreached} past the run's last call`] : []),
      ...(preempted > 0 ? [`${preempted} pre-empted by ${kind === 'crash_after_event' ? "the scenario's own crash at that event" : 'another fault at that attempt'}`] : []),
    ];
    const note = notes.length > 0 ? c.dim(`   never fired: ${notes.join(', ')}`) : '';
    lines.push(`    ${pad(kind, 20)}${padStart(String(total.fired[kind]), 6)} / ${notes.length > 0 ? pad(String(total.planned[kind]), 6) : total.planned[kind]}${note}`);
  }
  if (total.ownPreempted > 0) {
    lines.push(c.dim(`    ${total.ownPreempted} schedule(s) pre-empted one of the scenario's own faults (the added fault changed the run first): reported here, not a violation.`));
  }

  lines.push('');
  if (replayed.length === 0) {
    lines.push(c.green.bold(`  ✔ No schedule broke an invariant.`) + c.dim(` (${INVARIANTS.length} invariants of SPEC §7 checked after each run)`));
  } else {
    const schedules = [...exploration.scenarios].reduce((n, s) => n + [...s.tally.violations.values()].reduce((a, v) => a + v.schedules, 0), 0);
    lines.push(c.red.bold(`  ✘ ${replayed.length} violation${replayed.length === 1 ? '' : 's'} (${schedules} broken invariant-schedule pairs), each shrunk to its smallest schedule:`));
    for (const { finding, replay } of replayed) lines.push('', ...renderFinding(finding, replay, style));
  }
  return lines.join('\n') + '\n';
}

export function renderFinding(finding: Finding, replay: string, style: Style, indent = '    '): string[] {
  const { c } = style;
  return [
    `  ${c.red('✘')} ${c.bold(finding.scenario.id)} breaks ${c.bold(finding.invariant)}` + c.dim(finding.schedules > 1 ? ` (${finding.schedules} schedules)` : ''),
    `${indent}${c.dim('found with')}  ${describeSchedule(finding.found)}`,
    `${indent}${c.dim('minimal')}     ${describeMinimal(finding)}`,
    wrap(finding.message, 110, `${indent}`),
    `${indent}${c.dim('replay')}      ${c.cyan(replay)}`,
  ];
}

/** The minimal schedule, saying so when the scenario's own faults were not needed. */
export function describeMinimal(finding: Finding): string {
  const kept = new Set(finding.minimal.map((f) => JSON.stringify(f)));
  const dropped = finding.scenario.faults.filter((f) => !kept.has(JSON.stringify(f)));
  const own = dropped.length > 0 ? ` (without its own ${describeFaults(dropped)})` : '';
  return `${finding.scenario.id} with ${describeFaults(finding.minimal)}${own}`;
}

const short = (invariant: string) => invariant.split('_')[0]!;

export interface MutantReport {
  hunt: MutantHunt;
  replay: string | null;
}

export function mutantsJson(reports: MutantReport[]) {
  return {
    mutants: reports.map(({ hunt, replay }) => ({
      name: hunt.mutant.name,
      caught: hunt.fixed !== null || hunt.explored !== null,
      invariant: hunt.fixed?.invariant ?? hunt.explored?.invariant ?? null,
      scenario: hunt.fixed?.scenario.id ?? null,
      schedule: hunt.explored
        ? { scenario: hunt.explored.scenario.id, found: hunt.explored.found, minimal: hunt.explored.minimal, invariant: hunt.explored.invariant, message: hunt.explored.message, replay }
        : null,
    })),
  };
}

export function renderMutants(reports: MutantReport[], style: Style, seconds?: number): string {
  const { c } = style;
  const lines = [
    c.bold('faultlab explore --mutants') + c.dim(` — ${reports.length} deliberately broken runners and stores; each must be caught by an invariant`),
  ];
  const caughtBy = new Map<string, string[]>();
  for (const { hunt, replay } of reports) {
    const { mutant, fixed, explored } = hunt;
    const caught = fixed !== null || explored !== null;
    lines.push('', `  ${caught ? c.green('✔') : c.red('✘')} ${c.bold(mutant.name)}` + c.dim(` — ${mutant.description}`));
    lines.push(`      ${c.dim('fixed scenario ')} ${fixed ? `${fixed.scenario.id} → ${c.bold(fixed.invariant)}` : c.red('none of the fixed scenarios catches it')}`);
    if (explored) {
      lines.push(`      ${c.dim('explored       ')} ${explored.scenario.id} + ${describeSchedule(explored.found)} → ${c.bold(explored.invariant)}`);
      lines.push(`      ${c.dim('minimal        ')} ${describeMinimal(explored)}`);
      lines.push(wrap(explored.message, 110, '                       '));
      if (replay) lines.push(`      ${c.dim('replay         ')} ${c.cyan(replay)}`);
    } else {
      lines.push(`      ${c.dim('explored       ')} ${c.red('no explored schedule catches it')}`);
    }
    for (const inv of new Set([fixed?.invariant, explored?.invariant].filter((x): x is string => x !== undefined))) {
      caughtBy.set(inv, [...(caughtBy.get(inv) ?? []), mutant.name]);
    }
  }
  const caught = reports.filter((r) => r.hunt.fixed !== null || r.hunt.explored !== null).length;
  const silent = INVARIANTS.filter((inv) => !caughtBy.has(inv.id)).map((inv) => inv.id);
  const time = seconds !== undefined ? c.dim(` (${seconds.toFixed(2)} s)`) : '';
  lines.push('', `  ${caught === reports.length ? c.green.bold(`${caught} of ${reports.length} mutants caught`) : c.red.bold(`${caught} of ${reports.length} mutants caught`)}${time}`);
  lines.push(
    silent.length === 0
      ? c.green(`  every invariant caught at least one: `) + INVARIANTS.map((inv) => `${short(inv.id)} ×${caughtBy.get(inv.id)!.length}`).join(', ')
      : c.red(`  never caught anything: ${silent.join(', ')} — a check that cannot fail is a defect`),
  );
  return lines.join('\n') + '\n';
}

