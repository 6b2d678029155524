/**
 * The reference's exploration of a scenario, recorded: the transcript of every run it made (src/box/transcript.ts)
 * and what it found. A learner's runner is explored as the reference is — each schedule from the pause of its run
 * as written before the schedule's fault, after its run as written resumed from each pause has shown it keeps
 * nothing between steps (src/explore/fork.ts) — so these are the very runs a grading thread would make of a runner
 * that answers as the reference does. Such a runner's exploration is the reference's, and is graded as it (worker.ts,
 * `heldTo`), without running one schedule again: the harness is deterministic and the runs are the same, word for word.
 *
 * Plain data (it crosses to the grading threads), the same for every submission of a class: made once per
 * scenario, seed and step bound (`ReferenceTranscripts` in gradeSubmission.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../core/canonical.js';
import { PACKAGE_ROOT } from '../core/paths.js';
import { ReferenceRunner } from '../runner/ReferenceRunner.js';
import { TranscriptRecorder, type Transcript } from '../box/transcript.js';
import { depthOneSchedules } from '../explore/enumerate.js';
import { Bases, resumePoint, runFrom, wholeRun } from '../explore/fork.js';
import { runForVerdict, verdictOf } from '../explore/runSchedule.js';
import { Tally } from '../explore/tally.js';
import type { Target } from '../explore/target.js';
import type { Scenario } from '../scenario/types.js';
import type { RunResult } from '../check/RunResult.js';

export interface ScenarioTranscripts {
  /** Whose exploration: the reference's, or a submission's graded before (never named to another learner). */
  by: 'reference' | 'submission';
  /** Every run of the exploration, each once (two schedules may make the same run: a fault that never fires). */
  transcripts: Transcript[];
  /** The digest of the run as written, whole: a learner's must be this one. */
  asWritten: string;
  /** The exploration's figures as a grade gives them; null if a rule broke (the learner's own runs are then shrunk). */
  explored: { schedules: number; broke: number; fired: number; planned: number } | null;
}

/** A run, whole (its trace, log, state, rows, steps, crashes, what the runner threw and sent), as a digest. */
export function runDigest(run: RunResult): string {
  return createHash('sha256').update(wholeRun(run)).digest('base64url');
}

/** The reference's exploration of `scenario` (depth 1, every schedule as a grading thread runs a learner's), recorded. */
export async function referenceTranscripts(scenario: Scenario, seed: number): Promise<ScenarioTranscripts> {
  const seen = new Set<string>();
  const transcripts: Transcript[] = [];
  const recorder = new TranscriptRecorder((transcript) => {
    if (seen.has(transcript.script)) return;
    seen.add(transcript.script);
    transcripts.push(transcript);
  });
  const target: Target = { runner: recorder.runnerClass(ReferenceRunner), hooks: recorder.hooks, seed, storage: 'memory' };
  const bases = new Bases(target);
  try {
    const paused = await bases.of(scenario);
    const base = paused?.run ?? (await runForVerdict(scenario, [], target));
    const tally = new Tally();
    for (const added of depthOneSchedules(base)) {
      const run = paused !== null ? await runFrom(scenario, added, target, resumePoint(paused, added[0]!), bases.kept) : await runForVerdict(scenario, added, target);
      tally.add(added, verdictOf(run, 1));
    }
    const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
    const schedules = tally.runs[1] ?? 0;
    return {
      by: 'reference',
      transcripts,
      asWritten: runDigest(base),
      explored: tally.violations.size > 0 || recorder.threwItsOwn ? null : { schedules, broke: 0, fired: sum(tally.fired), planned: sum(tally.planned) },
    };
  } finally {
    bases.close();
  }
}

/**
 * The reference's explorations of the shipped graded set, recorded by the build (scripts/record-transcripts.mjs) for
 * the default seed: a grade need not record them again. Each is found by its scenario's content and seed, so an
 * edited scenario is simply recorded afresh; the whole file is the code's that made it (`stamp`, the sources' digest),
 * and faultlab run from its sources — a developer's checkout between two builds — checks that before using it.
 */
export const RECORDED_TRANSCRIPTS_PATH = join(PACKAGE_ROOT, 'dist', 'generated', 'transcripts.json');

export interface RecordedFile {
  stamp: string;
  explorations: Record<string, ScenarioTranscripts>;
}

/** What a scenario's exploration is found by: its content (not where it was read from) and the seed. */
export function explorationKey(scenario: Scenario, seed: number): string {
  const { file: _file, ...content } = scenario;
  return createHash('sha256').update(`${canonicalJson(content)}\0${seed}`).digest('base64url');
}

/** The digest of every source file (src/, by path): what the recorded file is checked against from the sources. */
export function sourceStamp(root = join(PACKAGE_ROOT, 'src')): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) hash.update(`${path.slice(root.length)}\0`).update(readFileSync(path)).update('\0');
    }
  };
  walk(root);
  return hash.digest('base64url');
}

let recorded: Map<string, ScenarioTranscripts> | null = null;

/** The explorations the build recorded, by `explorationKey` (none if there is no such file, or it is not this code's). */
export function recordedExplorations(): Map<string, ScenarioTranscripts> {
  if (recorded !== null) return recorded;
  recorded = new Map();
  if (!existsSync(RECORDED_TRANSCRIPTS_PATH)) return recorded;
  try {
    const file = JSON.parse(readFileSync(RECORDED_TRANSCRIPTS_PATH, 'utf8')) as RecordedFile;
    // Compiled, this code is the build's, as the file is; from the sources, it may have changed since.
    if (import.meta.url.endsWith('.ts') && file.stamp !== sourceStamp()) return recorded;
    recorded = new Map(Object.entries(file.explorations));
  } catch {
    // unreadable: recorded afresh
  }
  return recorded;
}
