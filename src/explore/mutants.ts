/**
 * Proof that the checks can fail: every mutant (src/mutants/catalogue.ts) is run over the fixed scenarios,
 * then explored, and must be caught. For each we keep the first fixed scenario that catches it and the
 * first explored schedule (scenario order, then the order of enumerate.ts) that does, shrunk to a minimal
 * replay — with the invariant that caught it each time. An explored schedule counts first if it breaks an
 * invariant its scenario as written keeps: that is what exploring adds to the fixed scenarios.
 */
import { byRule } from '../check/verdict.js';
import { DEFAULT_SEED } from '../core/defaults.js';
import type { CheckMessage } from '../check/types.js';
import type { FaultSpec } from '../faults/types.js';
import type { Mutant } from '../mutants/catalogue.js';
import type { Scenario } from '../scenario/types.js';
import type { StorageKind } from '../core/storage.js';
import { depthOneSchedules, secondFaults } from './enumerate.js';
import { findingFor, type Finding } from './findings.js';
import { runForVerdict, verdictOf } from './runSchedule.js';
import type { Target } from './target.js';
import type { RunResult } from '../check/RunResult.js';
import { isQueueInvariant } from '../check/queueInvariants.js';

export interface Catch {
  scenario: Scenario;
  invariant: string;
  message: CheckMessage;
}

export interface MutantHunt {
  mutant: Mutant;
  /** The first fixed scenario (as written) on which an invariant broke. */
  fixed: Catch | null;
  /** The first explored schedule (at least one added fault) that broke an invariant, shrunk. */
  explored: Finding | null;
  /** Schedules run until the explored catch (or all of them). */
  runs: number;
}

export interface HuntOptions {
  seed?: number;
  storage?: StorageKind;
  /** 2: look for a pair of added faults where no single one catches the mutant. */
  depth?: number;
  /** Every schedule on the PostgreSQL server at this URL, each in a schema of its own. */
  postgres?: string;
}

const firstBroken = (broken: Array<{ invariant: string; message: CheckMessage }>) =>
  [...broken].sort((a, b) => byRule(a.invariant, b.invariant))[0];

export async function huntMutant(mutant: Mutant, scenarios: readonly Scenario[], options: HuntOptions = {}): Promise<MutantHunt> {
  const target: Target = {
    runner: mutant.runner,
    tool: mutant.tool,
    ...(mutant.queue ? { queue: mutant.queue } : {}),
    ...(mutant.worker ? { worker: mutant.worker } : {}),
    seed: options.seed ?? DEFAULT_SEED,
    storage: options.storage ?? 'memory',
    ...(options.postgres !== undefined ? { postgres: options.postgres } : {}),
  };
  let fixed: Catch | null = null;
  let runs = 0;
  const baseBroken: Array<Set<string>> = [];
  const bases: RunResult[] = [];
  for (const scenario of scenarios) {
    const run = await runForVerdict(scenario, [], target);
    runs += 1;
    const broken = verdictOf(run, 0).broken;
    baseBroken.push(new Set(broken.map((b) => b.invariant)));
    const first = firstBroken(broken);
    if (fixed === null && first) fixed = { scenario, ...first };
    bases.push(run);
  }
  // The first schedule that breaks an invariant its scenario as written keeps (what exploring adds);
  // failing that, the first that breaks any.
  let fallback: { scenario: Scenario; invariant: string; added: FaultSpec[] } | null = null;
  const judgeSchedule = async (scenario: Scenario, index: number, added: FaultSpec[]): Promise<Finding | null> => {
    runs += 1;
    const broken = verdictOf(await runForVerdict(scenario, added, target), added.length).broken;
    const fresh = firstBroken(broken.filter((b) => !baseBroken[index]!.has(b.invariant)));
    if (fresh) return await findingFor(scenario, fresh.invariant, added, 1, target);
    const any = firstBroken(broken);
    if (any && fallback === null) fallback = { scenario, invariant: any.invariant, added };
    return null;
  };
  const depthOne = async (scenario: Scenario, index: number): Promise<Finding | null> => {
    for (const added of depthOneSchedules(bases[index]!)) {
      const finding = await judgeSchedule(scenario, index, added);
      if (finding) return finding;
    }
    return null;
  };
  const depthTwo = async (scenario: Scenario, index: number): Promise<Finding | null> => {
    for (const [first] of depthOneSchedules(bases[index]!)) {
      const run = await runForVerdict(scenario, [first!], target);
      for (const second of secondFaults(run, first!, scenario.faults.length)) {
        const finding = await judgeSchedule(scenario, index, [first!, second]);
        if (finding) return finding;
      }
    }
    return null;
  };
  const explored = async (search: (scenario: Scenario, index: number) => Promise<Finding | null>): Promise<Finding | null> => {
    for (const [index, scenario] of scenarios.entries()) {
      const finding = await search(scenario, index);
      if (finding) return finding;
    }
    return null;
  };
  let finding = await explored(depthOne);
  if (finding === null && (options.depth ?? 1) >= 2) finding = await explored(depthTwo);
  const last = fallback as { scenario: Scenario; invariant: string; added: FaultSpec[] } | null;
  if (finding === null && last !== null) finding = await findingFor(last.scenario, last.invariant, last.added, 1, target);
  return { mutant, fixed, explored: finding, runs };
}

/** A scenario, as written, on which a mutant broke invariants: the queue's, and the chapter's beside them. */
export interface QueueCatch {
  scenario: Scenario;
  queue: string[];
  chapter: string[];
  /** The first broken queue invariant's message (else the first broken one's). */
  message: CheckMessage;
}

/**
 * The queue's mutants (many workers): every scenario as written that catches the mutant, each with every invariant
 * it breaks there. Their interleavings and faults: `faultlab explore --runner mutant:NAME` (docs/spec.md §11.1).
 */
export async function queueCatches(mutant: Mutant, scenarios: readonly Scenario[], options: { seed?: number; postgres?: string } = {}): Promise<QueueCatch[]> {
  const target: Target = {
    ...(options.postgres !== undefined ? { postgres: options.postgres } : {}),
    runner: mutant.runner,
    tool: mutant.tool,
    ...(mutant.queue ? { queue: mutant.queue } : {}),
    ...(mutant.worker ? { worker: mutant.worker } : {}),
    seed: options.seed ?? DEFAULT_SEED,
    storage: 'file',
  };
  const catches: QueueCatch[] = [];
  for (const scenario of scenarios) {
    const broken = verdictOf(await runForVerdict(scenario, [], target), 0).broken.sort((a, b) => byRule(a.invariant, b.invariant));
    const queue = broken.filter((b) => isQueueInvariant(b.invariant));
    if (broken.length === 0) continue;
    catches.push({ scenario, queue: queue.map((b) => b.invariant), chapter: broken.filter((b) => !isQueueInvariant(b.invariant)).map((b) => b.invariant), message: (queue[0] ?? broken[0]!).message });
  }
  return catches;
}
