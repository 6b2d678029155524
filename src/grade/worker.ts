/**
 * A grading thread: one submission, from start to end. It opens the learner's box, runs every scenario as
 * written with the learner's runner in it, then explores every scenario that ran to its end — each with one
 * added fault at every point (src/explore's depth 1), shrinking the first violation to its smallest schedule.
 * Every run is simulated and judged here, in the grader's own code; the box only answers for `step`. A run
 * that hangs is stopped by the box's time limit; a box that is lost is replaced by a new one for the next run.
 * Started by gradeSubmission.ts; not an entry point of its own. It reads real time only to report how long a
 * run took (the simulator inside never does).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { msg } from '../render/words/index.js';
import type { Message } from '../core/message.js';
import { environmental } from '../core/environment.js';
import { byRule, judge } from '../check/verdict.js';
import type { RunResult } from '../check/RunResult.js';
import type { FaultSpec } from '../faults/types.js';
import { depthOneSchedules } from '../explore/enumerate.js';
import { findingFor } from '../explore/findings.js';
import { runForVerdict, verdictOf } from '../explore/runSchedule.js';
import { Tally } from '../explore/tally.js';
import { explore } from '../explore/explore.js';
import type { ScheduleChoice } from '../scenario/types.js';
import { targetOf } from '../explore/target.js';
import { Bases, resumePoint, runFrom } from '../explore/fork.js';
import { MAX_STEPS } from '../core/defaults.js';
import type { Scenario } from '../scenario/types.js';
import { simulate } from '../sim/simulate.js';
import type { Loss } from '../box/Box.js';
import { RunnerConstructorError } from '../box/boxedRunner.js';
import type { ConversationMemo } from '../box/memo.js';
import { SHIPPED_RUNNER, type ThrownInfo } from '../box/protocol.js';
import { NOTHING_PRINTED, type Printed } from '../box/captureOutput.js';
import { saidOf } from '../core/message.js';
import { openRunner, RunnerLoadFailed, type OpenedRunner } from '../target/runners.js';
import type { Explored, FromHarness, Go, GradeJob, RunOutcome, ToHarness, TranscriptsJob } from './job.js';
import { referenceTranscripts, runDigest, type ScenarioTranscripts } from './transcripts.js';
import { TranscriptRecorder, type Transcript } from '../box/transcript.js';
import type { Target } from '../explore/target.js';

const job = workerData as GradeJob;
const post = (message: FromHarness) => parentPort!.postMessage(message);

function thrown(error: unknown): ThrownInfo {
  if (error instanceof Error) return { name: error.name, message: saidOf(error) ?? error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { name: 'Error', message: String(error) };
}

/** What the box's load failure says: what the file threw, or how the box was lost while loading. */
function loadFailure(error: unknown): ThrownInfo {
  if (!(error instanceof RunnerLoadFailed)) return thrown(error);
  if (error.thrown !== null) return error.thrown;
  const loss = error.loss;
  if (loss?.killed) return { name: 'Timeout', message: msg('grade.process.loadTimeout') };
  const exit = loss?.exit ?? { code: null, signal: null };
  const how = exit.signal !== null ? msg('grade.process.killedBy', { signal: exit.signal }) : msg('grade.process.exitCode', { code: String(exit.code) });
  return { name: 'LearnerGone', message: msg('grade.process.goneWhileLoading', { exit: how }) };
}

let opened: OpenedRunner | null = null;

/** A full disk, a temporary folder that cannot be made: the grade stops (exit 2), no run or learner is blamed for it. */
function throwIfEnvironmental(error: unknown): void {
  const failure = environmental(error);
  if (failure !== null) throw failure;
}

/** A run lost with its box: stopped at its time limit, or ended on its own. */
function lostRun(loss: Loss, output: Printed, durationMs: number): Exclude<RunOutcome, { kind: 'done' | 'crashed' }> {
  if (loss.killed) return { kind: 'timeout', step: loss.step, output, durationMs };
  return { kind: 'died', step: loss.step, exit: loss.exit, output, durationMs, ...(loss.protocol !== undefined ? { protocol: loss.protocol } : {}) };
}

/** One run of the scenario (with added faults) by the learner's runner, however it ends; `memo`: its conversations remembered. */
async function runOne(scenario: Scenario, added: readonly FaultSpec[], memo: ConversationMemo | null = null): Promise<RunOutcome> {
  const box = opened!;
  try {
    await box.beginRun(memo); // a new box if the last one was lost
  } catch (error) {
    throwIfEnvironmental(error);
    return { kind: 'crashed', error: loadFailure(error), output: NOTHING_PRINTED, durationMs: 0 };
  }
  const started = performance.now();
  let run: RunResult | null = null;
  let error: unknown = null;
  try {
    run = judge(await simulate(scenario, { runner: box.runner, ...(box.queue ? { queue: box.queue } : {}), seed: job.seed, storage: 'memory', ...(job.postgres !== undefined ? { postgres: job.postgres } : {}), maxSteps: job.maxSteps, extraFaults: added }));
  } catch (e) {
    error = e;
  }
  throwIfEnvironmental(error);
  const { output, loss } = await box.endRun();
  return ended(run, error, output, loss, started);
}

/** How a run ended, from what it gave or threw and how its box ended. */
function ended(run: RunResult | null, error: unknown, output: Printed, loss: Loss | null, started: number): RunOutcome {
  const durationMs = Math.round(performance.now() - started);
  if (loss !== null) return lostRun(loss, output, durationMs);
  if (run === null) return { kind: 'crashed', error: loadFailure(error instanceof RunnerConstructorError ? error.cause : error), output, durationMs };
  return { kind: 'done', run, output, durationMs };
}

/**
 * The schedules of a scenario start from the pauses of its run as written (src/explore/fork.ts), as `faultlab
 * explore` runs them, once the learner's runner has shown it keeps nothing between steps (Bases checks that,
 * per scenario); else each runs from the start. Once shown, the box's conversations are remembered too, per
 * scenario (src/box/memo.ts), for the schedules of scenarios that cannot be forked (the pillars') as well. Every
 * run is recorded as a transcript (src/box/transcript.ts) while a scenario's exploration may be kept for the next
 * submissions (explorations.ts); with another step bound, or on PostgreSQL, each schedule runs from its start, unrecorded.
 */
let explorer: { target: Target; bases: Bases; recorder: TranscriptRecorder } | null = null;

function explorerOf(): NonNullable<typeof explorer> {
  if (explorer === null) {
    const recorder = new TranscriptRecorder();
    const box = targetOf(opened!, job.seed, 'memory');
    const target: Target = { ...box, runner: recorder.runnerClass(box.runner), hooks: recorder.around(box.hooks!) };
    explorer = { target, bases: new Bases(target), recorder };
  }
  return explorer;
}

/** One explored schedule, forked from the pause before its fault when it may be. */
async function runExplored(scenario: Scenario, added: readonly FaultSpec[]): Promise<RunOutcome> {
  if (job.postgres !== undefined || job.maxSteps !== MAX_STEPS) return runOne(scenario, added); // each from its start
  const { target, bases } = explorerOf();
  const paused = await bases.of(scenario);
  const remembered = bases.memoFor(scenario);
  if (remembered !== null) target.memo = remembered;
  else delete target.memo;
  delete target.ended; // a run that cannot begin (its box does not open again) ends with nothing of the last one's
  const started = performance.now();
  let run: RunResult | null = null;
  let error: unknown = null;
  try {
    run = paused !== null ? await runFrom(scenario, added, target, resumePoint(paused, added[0]!), bases.kept) : await runForVerdict(scenario, added, target);
  } catch (e) {
    error = e;
  }
  throwIfEnvironmental(error);
  const { output, loss } = target.ended ?? { output: NOTHING_PRINTED, loss: null };
  if (remembered?.diverged) {
    // A step told a remembered conversation again answered otherwise: no memo from here on, and this schedule
    // again without one (the box it was told in is gone: the next run opens another). What was recorded of the
    // scenario is no runner's: it is not kept.
    bases.forget();
    spoiled = true;
    return runExplored(scenario, added);
  }
  return ended(run, error, output, loss, started);
}

/** The scenario being explored had a run that cannot stand for its runner's (a memo that diverged): its transcripts are not kept. */
let spoiled = false;

/**
 * The runner held to the transcripts of an exploration already made (the reference's, or a submission's graded
 * before): the digest of its answers to every run's script, each the one recorded? A box lost meanwhile is no.
 */
async function answersAsIn(set: ScenarioTranscripts): Promise<boolean> {
  try {
    const digests = await opened!.check!(set.transcripts.map((transcript) => transcript.script));
    return digests.every((digest, i) => digest === set.transcripts[i]!.digest);
  } catch (error) {
    throwIfEnvironmental(error);
    return false;
  }
}

/** The explorations already made whose run as written is this one (`after`: those already tried), or word to explore. */
function ask(index: number, asWritten: string, after: number): Promise<Extract<ToHarness, { type: 'sets' }>> {
  return new Promise((resolve) => {
    answers.set(index, resolve);
    post({ type: 'ask', index, asWritten, after });
  });
}
const answers = new Map<number, (sets: Extract<ToHarness, { type: 'sets' }>) => void>();

/**
 * The scenario's exploration as one already made, if the runner answers every one of its runs as it was answered
 * there (transcript.ts): its run as written is that one, and so is every schedule's. Null: none is; the thread
 * explores it, recording, and says what it recorded (or that it keeps none).
 */
async function heldTo(index: number, base: RunResult): Promise<Explored | null> {
  const started = performance.now();
  const asWritten = runDigest(base);
  let after = 0;
  for (;;) {
    const { sets, explore } = await ask(index, asWritten, after);
    for (const set of sets) {
      if (set.explored !== null && (await answersAsIn(set))) {
        return { ...set.explored, violations: [], finding: null, stopped: null, durationMs: Math.round(performance.now() - started), heldTo: set.by };
      }
    }
    after += sets.length;
    if (explore) return null;
  }
}

async function exploreScenario(scenario: Scenario, base: RunResult, index: number): Promise<Explored> {
  // Held to an exploration already made, it need not be explored again; else explored here, and kept for the next.
  const kept = job.reuse && scenario.workers === undefined && opened!.check !== undefined && job.postgres === undefined && job.maxSteps === MAX_STEPS;
  if (kept) {
    const same = await heldTo(index, base);
    if (same !== null) return same;
  }
  const transcripts = new Map<string, Transcript>();
  if (kept) {
    spoiled = false;
    explorerOf().recorder.threwItsOwn = false;
    explorerOf().recorder.onRun = (transcript) => void transcripts.set(transcript.script, transcript);
  }
  try {
    const explored = await exploreLive(scenario, base);
    if (kept) {
      const clean = explored.violations.length === 0 && explored.stopped === null && !spoiled && !explorerOf().recorder.threwItsOwn;
      post({ type: 'recorded', index, asWritten: runDigest(base), set: clean ? { by: 'submission', transcripts: [...transcripts.values()], asWritten: runDigest(base), explored: { schedules: explored.schedules, broke: 0, fired: explored.fired, planned: explored.planned } } : null });
    }
    return explored;
  } finally {
    if (explorer !== null) explorer.recorder.onRun = null;
  }
}

async function exploreLive(scenario: Scenario, base: RunResult): Promise<Explored> {
  const started = performance.now();
  let tally = new Tally();
  let schedules = 0;
  let broke = 0;
  let stopped: Explored['stopped'] = null;
  if (scenario.workers !== undefined) {
    // Many workers (the second exercise): explored as `faultlab explore` does — its interleavings, then one added
    // fault at every point of the run and of every worker's loop — in this thread, on the learner's boxes.
    const report = await explore([scenario], { target: targetOf(opened!, job.seed, 'memory'), workers: 1 });
    tally = report.scenarios[0]!.tally;
    const sum = (counts: readonly number[]) => counts.reduce((a, b) => a + b, 0);
    // The run as written is counted apart (it was graded as written); its interleavings and added faults are the exploration.
    schedules = sum(tally.runs) - 1 + sum(tally.interleavings.runs);
    broke = sum(tally.broke) - (tally.asWritten?.passed === false ? 1 : 0) + tally.interleavings.broke;
  }
  for (const added of scenario.workers !== undefined ? [] : depthOneSchedules(base)) {
    const outcome = await runExplored(scenario, added);
    if (outcome.kind !== 'done') {
      stopped = { schedule: added, outcome };
      break;
    }
    const v = verdictOf(outcome.run, 1);
    schedules += 1;
    if (v.broken.length > 0) broke += 1;
    tally.add(added, v);
  }
  const violations = [...tally.violations]
    .sort(([a], [b]) => byRule(a, b))
    .map(([check, first]) => ({ check, schedules: first.schedules, message: first.message, added: first.added }));
  let finding: Explored['finding'] = null;
  const first = violations[0];
  if (first !== undefined) finding = await shrunk(scenario, first, tally.violations.get(first.check)?.schedule);
  const fired = Object.values(tally.fired).reduce((a, b) => a + b, 0);
  const planned = Object.values(tally.planned).reduce((a, b) => a + b, 0);
  return { schedules, broke, violations, finding, stopped, fired, planned, durationMs: Math.round(performance.now() - started) };
}

/** The violation shrunk to its smallest schedule (src/explore's shrink, run in the learner's box). */
async function shrunk(scenario: Scenario, violation: Explored['violations'][number], schedule?: ScheduleChoice[]): Promise<NonNullable<Explored['finding']>> {
  const unshrunk = { check: violation.check, found: violation.added, minimal: [...scenario.faults, ...violation.added], message: violation.message, run: null, schedules: violation.schedules };
  try {
    const finding = await findingFor(scenario, violation.check, violation.added, violation.schedules, targetOf(opened!, job.seed, 'memory', job.postgres), schedule);
    return { check: violation.check, found: violation.added, minimal: finding.minimal, message: finding.message, run: finding.run, schedules: violation.schedules };
  } catch {
    // a runner that does not break it again the same way (or a box lost meanwhile): keep the schedule as found
    return unshrunk;
  }
}

/** The main thread's word once it knows what the file holds (job.ts, Go). */
let went: (go: Go) => void = () => {};
const gone = new Promise<Go>((resolve) => (went = resolve));

/** What the main thread says: its word to go, then the explorations already made that each question asked for. */
function listen(): void {
  parentPort!.on('message', (message: ToHarness) => {
    if (message.type === 'go') went(message);
    else {
      const answer = answers.get(message.index);
      answers.delete(message.index);
      answer?.(message);
    }
  });
}

async function main(): Promise<void> {
  try {
    opened = await openRunner({ kind: 'file', file: job.file }, job.file, { runTimeoutMs: job.timeoutMs, loadTimeoutMs: job.loadTimeoutMs });
  } catch (error) {
    throwIfEnvironmental(error);
    const kind = error instanceof RunnerLoadFailed && error.kind !== null && (error.kind === 'runner' || job.workerScenarios !== undefined) ? error.kind : undefined;
    post({ type: 'load_error', error: loadFailure(error), ...(kind !== undefined ? { kind } : {}) });
    return;
  }
  if (opened.shipped && !job.acceptShipped) {
    // The shipped solution (or a mutant) handed in as the learner's own: named as such, and not graded.
    post({ type: 'load_error', error: { name: SHIPPED_RUNNER, message: msg(`box.shipped.${opened.shipped}`, { file: job.file }) } });
    return;
  }
  const kind = opened.isWorker === true && job.workerScenarios !== undefined ? 'worker' : 'runner';
  post({ type: 'loaded', runnerName: opened.name, kind });
  const { skip, fixed, explore: explored } = await gone;
  const scenarios = kind === 'worker' ? job.workerScenarios! : job.scenarios;
  const bases: Array<RunResult | null | undefined> = [];
  if (fixed) {
    for (const [index, scenario] of scenarios.entries()) {
      if (skip[index]) continue;
      const outcome = await runOne(scenario, []);
      bases[index] = asWritten(outcome);
      post({ type: 'fixed', index, outcome });
    }
  }
  if (!job.explore) return;
  let halted: Message | null = null;
  for (const index of explored) {
    const scenario = scenarios[index]!;
    if (skip[index]) continue;
    if (halted !== null) {
      post({ type: 'explored', index, explored: null, reason: halted });
      continue;
    }
    // A thread that did not run the scenario as written runs it here: the base its schedules are made from.
    const base = bases[index] !== undefined ? bases[index] : asWritten(await runOne(scenario, []));
    if (base === null || base === undefined) {
      post({ type: 'explored', index, explored: null, reason: msg('grade.notExplored.didNotEnd') });
      continue;
    }
    const explored = await exploreScenario(scenario, base, index);
    if (explored.stopped !== null) halted = msg(explored.stopped.outcome.kind === 'timeout' ? 'grade.notExplored.hung' : 'grade.notExplored.died', { id: scenario.id });
    post({ type: 'explored', index, explored });
  }
}

/** The run as written, when it ran to its end: what its schedules are made from. */
function asWritten(outcome: RunOutcome): RunResult | null {
  return outcome.kind === 'done' && outcome.run.runnerError === null ? outcome.run : null;
}

/** A thread of the reference's transcripts (transcripts.ts): each scenario it is given, recorded and posted. */
async function recordReference(task: TranscriptsJob): Promise<void> {
  for (const index of task.indices) post({ type: 'transcripts', index, set: await referenceTranscripts(task.scenarios[index]!, task.seed) });
}

// No top-level await: the thread also runs from a CommonJS bundle (scripts/bundle-cli.mjs).
void (async () => {
  try {
    if ('indices' in workerData) await recordReference(workerData as TranscriptsJob);
    else {
      listen();
      await main();
    }
    post({ type: 'finished' });
  } catch (error) {
    post({ type: 'failed', error: thrown(environmental(error) ?? error) });
  } finally {
    parentPort!.unref(); // its listener no longer holds the thread
    (explorer as { bases: Bases } | null)?.bases.close();
    await (opened as OpenedRunner | null)?.close();
    if (job.postgres !== undefined) await (await import('../postgres/storage.js')).closeIdle(); // the schemas this thread's runs left idle
  }
})();
