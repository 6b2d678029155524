/**
 * What `faultlab explore` shows: a table per scenario, the fault coverage, and each violation with its
 * minimal schedule and the command that replays it — or one JSON document. Pure: the CLI passes in the
 * style, the timing and where the replays were written.
 */
import { INVARIANTS } from '../check/invariants.js';
import { LIMIT_INVARIANTS } from '../check/limits.js';
import { usesLimits } from '../scenario/types.js';
import { QUEUE_INVARIANTS } from '../check/queueInvariants.js';
import type { Mutant } from '../mutants/catalogue.js';
import type { QueueCatch } from './mutants.js';
import { isRule } from '../check/verdict.js';
import { describeFaults } from '../faults/types.js';
import { displayWidth, pad, padStart, tighten, wrap } from '../render/format.js';
import { t, tn, word, type Lang } from '../render/words/index.js';
import { messageJson } from '../render/renderJson.js';
import type { Style } from '../render/style.js';
import type { Exploration } from './explore.js';
import type { Finding } from './findings.js';
import type { MutantHunt } from './mutants.js';
import { describeChoices, describeSchedule, EXPLORED_KINDS, EXPLORED_WORKER_KINDS } from './schedule.js';
import type { Tally } from './tally.js';

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

export function explorationJson(lang: Lang, exploration: Exploration, replayed: Replayed[], header: ExploreHeader) {
  const { total } = exploration;
  return {
    runs: total.total,
    violations: replayed.map(({ finding, replay }) => ({
      scenario: finding.scenario.id,
      schedule: finding.minimal,
      ...(finding.scenario.workers !== undefined ? { choices: finding.schedule } : {}),
      invariant: finding.invariant,
      ...messageJson(lang, finding.message),
      replay,
      found: finding.found,
      schedules: finding.schedules,
    })),
    outcomes: Object.fromEntries(exploration.scenarios.map(({ scenario, tally }) => [scenario.id, Object.fromEntries(tally.outcomes)])),
    scenarios: exploration.scenarios.map(({ scenario, tally }) => ({
      id: scenario.id,
      asWritten: tally.asWritten,
      explored: { schedules: tally.total - (tally.runs[0] ?? 0), broke: tally.broke.slice(1).reduce((a, b) => a + b, 0) },
      ...(scenario.workers !== undefined ? { interleavings: interleavingsJson(tally) } : {}),
    })),
    coverage: { ...total.fired },
    planned: { ...total.planned },
    depth: exploration.depth,
    ...(manyWorkers(exploration) ? { preemptions: exploration.preemptions, interleavings: interleavingsJson(total) } : {}),
    runner: header.runner,
    seed: exploration.seed,
  };
}

/** Did the exploration take in a many-worker scenario? Only then does it say anything of interleavings. */
function manyWorkers(exploration: Exploration): boolean {
  return exploration.scenarios.some(({ scenario }) => scenario.workers !== undefined);
}

function interleavingsJson(tally: Tally) {
  const { runs, broke, repeated, pruned } = tally.interleavings;
  return { runs: tally.interleaved, byPreemptions: Object.fromEntries(runs.flatMap((n, k) => (k > 0 ? [[String(k), n]] : []))), broke, repeated, pruned };
}

/**
 * The scenarios that fail as written for a check other than a rule — their figures, a listed fault that never
 * fired — as `faultlab run` fails them (a broken rule is a violation, reported with its schedule).
 */
export function failedAsWritten(exploration: Exploration): Array<{ scenario: Exploration['scenarios'][number]['scenario']; checks: string[] }> {
  return exploration.scenarios.flatMap(({ scenario, tally }) => {
    const checks = (tally.asWritten?.failed ?? []).filter((id) => !isRule(id));
    return checks.length > 0 ? [{ scenario, checks }] : [];
  });
}

export function renderExploration(lang: Lang, exploration: Exploration, replayed: Replayed[], header: ExploreHeader, style: Style): string {
  const { c } = style;
  const { total } = exploration;
  const lines: string[] = [];
  const storage = t(lang, exploration.postgres !== undefined ? 'explore.storage.postgres' : exploration.storage === 'memory' ? 'explore.storage.memory' : 'explore.storage.files');
  // The id column fits the longest id: a long id never runs into the next column.
  const idWidth = Math.max(27, ...exploration.scenarios.map(({ scenario }) => scenario.id.length + 2));
  const about = t(lang, 'explore.head', { runner: header.runner, depth: exploration.depth, seed: exploration.seed, storage, workers: tn(lang, 'explore.n.worker', header.workers) });
  const head = `  ${padStart('#', 2)}  ${pad(t(lang, 'explore.col.scenario'), idWidth)}${padStart(t(lang, 'explore.col.schedules'), 10)}${padStart(t(lang, 'explore.col.outcomes'), 10)}${padStart(t(lang, 'explore.col.fired'), 11)}  ${t(lang, 'explore.col.violations')}`;
  lines.push(c.bold(`faultlab explore`) + c.dim(` — ${about}`), '', c.bold(head));
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
  const parts = [
    tn(lang, 'explore.n.asWritten', asWritten),
    t(lang, 'explore.withOne', { n: one }),
    ...(two > 0 ? [t(lang, 'explore.withTwo', { n: two })] : []),
    ...(total.interleaved > 0 ? [tn(lang, 'explore.n.interleaving', total.interleaved)] : []),
  ];
  const schedules = t(lang, 'explore.schedules', { n: total.total, parts: parts.join(t(lang, 'explore.join')) });
  const time = header.seconds !== undefined ? ' ' + t(lang, 'explore.time', { seconds: header.seconds.toFixed(2), rate: Math.round(total.total / header.seconds) }) : '';
  lines.push('', `  ${tighten(`${schedules}${time}`)}`);
  if (manyWorkers(exploration)) lines.push(...renderInterleavings(lang, exploration, style));

  lines.push('', c.bold(`  ${t(lang, 'explore.coverage')}`) + c.dim(` — ${t(lang, 'explore.coverage.about')}`));
  for (const kind of [...EXPLORED_KINDS, ...EXPLORED_WORKER_KINDS.filter((kind) => (total.planned[kind] ?? 0) > 0)]) {
    const unreached = total.unreached[kind];
    const preempted = total.planned[kind] - total.fired[kind] - unreached;
    const notes = [
      ...(unreached > 0 ? [t(lang, 'explore.pastLastCall', { n: unreached })] : []),
      ...(preempted > 0 ? [t(lang, kind === 'crash_after_event' ? 'explore.preemptedByOwnCrash' : 'explore.preemptedByOther', { n: preempted })] : []),
    ];
    const note = notes.length > 0 ? c.dim(`   ${t(lang, 'explore.neverFired', { notes: notes.join(t(lang, 'explore.join')) })}`) : '';
    lines.push(`    ${pad(kind, 20)}${padStart(String(total.fired[kind]), 6)} / ${notes.length > 0 ? pad(String(total.planned[kind]), 6) : total.planned[kind]}${note}`);
  }
  if (total.ownPreempted > 0) {
    lines.push(c.dim(`    ${t(lang, 'explore.ownPreempted', { n: total.ownPreempted })}`));
  }

  lines.push('');
  if (replayed.length === 0) {
    const past = exploration.scenarios.some(({ scenario }) => usesLimits(scenario));
    const about = past
      ? t(lang, 'limits.explore.noViolation.about', { n: INVARIANTS.length, more: LIMIT_INVARIANTS.length })
      : manyWorkers(exploration)
        ? t(lang, 'explore.noViolation.aboutWorkers', { n: INVARIANTS.length + QUEUE_INVARIANTS.length })
        : t(lang, 'explore.noViolation.about', { n: INVARIANTS.length });
    lines.push(c.green.bold(`  ${t(lang, 'explore.noViolation')}`) + c.dim(` ${about}`));
  } else {
    const schedules = [...exploration.scenarios].reduce((n, s) => n + [...s.tally.violations.values()].reduce((a, v) => a + v.schedules, 0), 0);
    lines.push(c.red.bold(`  ${t(lang, 'explore.violations', { violations: tn(lang, 'explore.n.violation', replayed.length), pairs: schedules })}`));
    for (const { finding, replay } of replayed) lines.push('', ...renderFinding(lang, finding, replay, style));
  }
  const failing = failedAsWritten(exploration);
  if (failing.length > 0) {
    lines.push('', c.red.bold(`  ${t(lang, 'explore.failedAsWritten', { n: failing.length })}`));
    for (const { scenario, checks } of failing) lines.push(`    ${c.red('✘')} ${pad(scenario.id, idWidth)}${c.dim(checks.join(', '))}`);
    lines.push(c.dim(`    ${t(lang, 'explore.failedAsWritten.how', { command: `faultlab run ${failing[0]!.scenario.id}${header.runner === 'reference' ? '' : ` --runner ${header.runner}`}` })}`));
  }
  return lines.join('\n') + '\n';
}

export function renderFinding(lang: Lang, finding: Finding, replay: string, style: Style, indent = '    '): string[] {
  const { c } = style;
  // The labels in a column of their own: the words dim, the padding after them plain.
  const label = (key: 'explore.label.found' | 'explore.label.minimal' | 'explore.label.replay') => {
    const text = t(lang, key);
    return `${indent}${c.dim(text)}${' '.repeat(Math.max(2, 12 - displayWidth(text)))}`;
  };
  return [
    `  ${c.red('✘')} ${t(lang, 'explore.breaks', { scenario: c.bold(finding.scenario.id), invariant: c.bold(finding.invariant) })}` + c.dim(finding.schedules > 1 ? ` ${t(lang, 'explore.inSchedules', { n: finding.schedules })}` : ''),
    `${label('explore.label.found')}${describeFound(lang, finding)}`,
    `${label('explore.label.minimal')}${describeMinimal(lang, finding)}`,
    wrap(word(lang, finding.message), 110, `${indent}`),
    `${label('explore.label.replay')}${c.cyan(replay)}`,
  ];
}

/** What the explorer had added when it first saw the rule break — and, for many workers, the schedule it ran. */
function describeFound(lang: Lang, finding: Finding): string {
  const faults = describeSchedule(lang, finding.found);
  return finding.scenario.workers !== undefined && finding.foundSchedule.length > 0 ? t(lang, 'explore.minimalSchedule', { minimal: faults, choices: describeChoices(lang, finding.foundSchedule) }) : faults;
}

/** The minimal schedule, saying so when the scenario's own faults were not needed. */
export function describeMinimal(lang: Lang, finding: Finding): string {
  const kept = new Set(finding.minimal.map((f) => JSON.stringify(f)));
  const dropped = finding.scenario.faults.filter((f) => !kept.has(JSON.stringify(f)));
  const params = { id: finding.scenario.id, faults: describeFaults(finding.minimal) };
  const minimal = dropped.length > 0 ? t(lang, 'explore.minimalWithout', { ...params, own: describeFaults(dropped) }) : t(lang, 'explore.minimal', params);
  return finding.schedule.length > 0 ? t(lang, 'explore.minimalSchedule', { minimal, choices: describeChoices(lang, finding.schedule) }) : minimal;
}

/** What the interleavings covered: the bound, the runs by pre-emptions, and what was pruned. */
function renderInterleavings(lang: Lang, exploration: Exploration, style: Style): string[] {
  const { c } = style;
  const counts = exploration.total.interleavings;
  const parts = counts.runs.flatMap((n, k) => (k > 0 && n > 0 ? [t(lang, 'explore.interleavings.withK', { n, k })] : []));
  return [
    '',
    c.bold(`  ${t(lang, 'explore.interleavings')}`),
    c.dim(wrap(t(lang, 'explore.interleavings.bound', { bound: exploration.preemptions }), 110, '    ')),
    `    ${t(lang, 'explore.interleavings.ran', { n: exploration.total.interleaved, parts: parts.join(t(lang, 'explore.join')) || '-', broke: counts.broke })}`,
    `    ${t(lang, 'explore.interleavings.pruned', { repeated: counts.repeated, pruned: counts.pruned })}`,
  ];
}

const short = (invariant: string) => invariant.split('_')[0]!;

export interface MutantReport {
  hunt: MutantHunt;
  replay: string | null;
}

export function mutantsJson(lang: Lang, reports: MutantReport[]) {
  return {
    mutants: reports.map(({ hunt, replay }) => ({
      name: hunt.mutant.name,
      caught: hunt.fixed !== null || hunt.explored !== null,
      invariant: hunt.fixed?.invariant ?? hunt.explored?.invariant ?? null,
      scenario: hunt.fixed?.scenario.id ?? null,
      schedule: hunt.explored
        ? { scenario: hunt.explored.scenario.id, found: hunt.explored.found, minimal: hunt.explored.minimal, invariant: hunt.explored.invariant, ...messageJson(lang, hunt.explored.message), replay }
        : null,
    })),
  };
}

/** The queue's mutants, and every scenario of scenarios/workers (as written) that catches each. */
export interface QueueMutantReport {
  mutant: Mutant;
  catches: QueueCatch[];
}

export function queueMutantsJson(lang: Lang, reports: QueueMutantReport[]) {
  return reports.map(({ mutant, catches }) => ({
    name: mutant.name,
    caught: catches.length > 0,
    catches: catches.map((c) => ({ scenario: c.scenario.id, queue: c.queue, chapter: c.chapter, ...messageJson(lang, c.message) })),
  }));
}

/**
 * The queue's mutants (many workers): each with every many-worker scenario that catches it as written, and the
 * invariants it breaks there — the queue's, then the chapter's in brackets; every invariant of the queue must be
 * among them. Their interleavings and faults are explored one mutant at a time (`--runner mutant:NAME`, docs/spec.md §11.1).
 */
export function renderQueueMutants(lang: Lang, reports: QueueMutantReport[], style: Style): string {
  const { c } = style;
  const lines = ['', c.bold(t(lang, 'explore.queueMutants.head', { n: reports.length }))];
  const caughtBy = new Map<string, number>();
  for (const { mutant, catches } of reports) {
    lines.push('', `  ${catches.length > 0 ? c.green('✔') : c.red('✘')} ${c.bold(mutant.name)}` + c.dim(` — ${word(lang, mutant.description)}`));
    if (catches.length === 0) lines.push(`      ${c.red(t(lang, 'explore.mutants.noFixed'))}`);
    for (const one of catches) {
      const chapter = one.chapter.length > 0 ? c.dim(` (${one.chapter.map(short).join(', ')})`) : '';
      lines.push(`      ${one.scenario.id} → ${c.bold(one.queue.map(short).join(', ') || '-')}${chapter}`);
    }
    for (const inv of new Set(catches.flatMap((one) => one.queue))) caughtBy.set(inv, (caughtBy.get(inv) ?? 0) + 1);
  }
  const caught = reports.filter((r) => r.catches.length > 0).length;
  const tally = t(lang, 'explore.mutants.caught', { caught, n: reports.length });
  lines.push('', `  ${caught === reports.length ? c.green.bold(tally) : c.red.bold(tally)}`);
  const silent = QUEUE_INVARIANTS.filter((inv) => !caughtBy.has(inv.id)).map((inv) => inv.id);
  lines.push(
    silent.length === 0
      ? c.green(`  ${t(lang, 'explore.mutants.everyCaught')} `) + QUEUE_INVARIANTS.map((inv) => `${short(inv.id)} ×${caughtBy.get(inv.id)!}`).join(', ')
      : c.red(`  ${t(lang, 'explore.mutants.silent', { silent: silent.join(', ') })}`),
  );
  return lines.join('\n') + '\n';
}

export function renderMutants(lang: Lang, reports: MutantReport[], style: Style, seconds?: number, invariants: ReadonlyArray<{ id: string }> = INVARIANTS): string {
  const { c } = style;
  const lines = [c.bold('faultlab explore --mutants') + c.dim(` — ${t(lang, 'explore.mutants.head', { n: reports.length })}`)];
  // Labels in a column 15 wide, dim with their padding.
  const label = (key: 'explore.mutants.fixed' | 'explore.mutants.explored' | 'explore.mutants.minimal' | 'explore.mutants.replay') => c.dim(pad(t(lang, key), 15));
  const caughtBy = new Map<string, string[]>();
  for (const { hunt, replay } of reports) {
    const { mutant, fixed, explored } = hunt;
    const caught = fixed !== null || explored !== null;
    lines.push('', `  ${caught ? c.green('✔') : c.red('✘')} ${c.bold(mutant.name)}` + c.dim(` — ${word(lang, mutant.description)}`));
    lines.push(`      ${label('explore.mutants.fixed')} ${fixed ? `${fixed.scenario.id} → ${c.bold(fixed.invariant)}` : c.red(t(lang, 'explore.mutants.noFixed'))}`);
    if (explored) {
      lines.push(`      ${label('explore.mutants.explored')} ${explored.scenario.id} + ${describeSchedule(lang, explored.found)} → ${c.bold(explored.invariant)}`);
      lines.push(`      ${label('explore.mutants.minimal')} ${describeMinimal(lang, explored)}`);
      lines.push(wrap(word(lang, explored.message), 110, '                       '));
      if (replay) lines.push(`      ${label('explore.mutants.replay')} ${c.cyan(replay)}`);
    } else {
      lines.push(`      ${label('explore.mutants.explored')} ${c.red(t(lang, 'explore.mutants.noExplored'))}`);
    }
    for (const inv of new Set([fixed?.invariant, explored?.invariant].filter((x): x is string => x !== undefined))) {
      caughtBy.set(inv, [...(caughtBy.get(inv) ?? []), mutant.name]);
    }
  }
  const caught = reports.filter((r) => r.hunt.fixed !== null || r.hunt.explored !== null).length;
  const silent = invariants.filter((inv) => !caughtBy.has(inv.id)).map((inv) => inv.id);
  const time = seconds !== undefined ? c.dim(` (${seconds.toFixed(2)} s)`) : '';
  const tally = t(lang, 'explore.mutants.caught', { caught, n: reports.length });
  lines.push('', `  ${caught === reports.length ? c.green.bold(tally) : c.red.bold(tally)}${time}`);
  lines.push(
    silent.length === 0
      ? c.green(`  ${t(lang, 'explore.mutants.everyCaught')} `) + invariants.map((inv) => `${short(inv.id)} ×${caughtBy.get(inv.id)!.length}`).join(', ')
      : c.red(`  ${t(lang, 'explore.mutants.silent', { silent: silent.join(', ') })}`),
  );
  return lines.join('\n') + '\n';
}

