/**
 * A grading thread: one submission, from start to end. It starts the learner's process, runs every scenario as
 * written with the learner's runner standing in through proxyRunner.ts, then explores every scenario that ran to
 * its end — each with one added fault at every point (src/explore's depth 1), shrinking the first violation to
 * its smallest schedule. Every run is simulated and judged here, in the grader's own code; the learner's process
 * only answers for `step`. A run that hangs is killed by the main thread's watchdog; a process that dies is
 * replaced by a new one for the next run. Started by gradeSubmission.ts; not an entry point of its own.
 * It reads real time only to report how long a run took (the simulator inside never does).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { setLang, t } from '../core/i18n/index.js';
import type { RunResult } from '../check/RunResult.js';
import { byRule, judge } from '../check/verdict.js';
import type { FaultSpec } from '../faults/types.js';
import { depthOneSchedules } from '../explore/enumerate.js';
import { findingFor } from '../explore/findings.js';
import { verdictOf } from '../explore/runSchedule.js';
import { Tally } from '../explore/tally.js';
import type { Scenario } from '../scenario/types.js';
import { simulate } from '../sim/simulate.js';
import type { Target } from '../sim/target.js';
import { RunControl } from './control.js';
import type { Explored, FromHarness, GradeJob, RunOutcome } from './job.js';
import { LearnerProcess } from './LearnerProcess.js';
import type { ThrownInfo } from './protocol.js';
import { proxyRunnerClass } from './proxyRunner.js';

const job = workerData as GradeJob;
// This thread judges every run (the checks' messages) and diagnoses what it could not run: in the grade's language.
setLang(job.lang);
const control = new RunControl(job.control);
const post = (message: FromHarness) => parentPort!.postMessage(message);

function thrown(error: unknown): ThrownInfo {
  if (error instanceof Error) return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { name: 'Error', message: String(error) };
}


let learner: LearnerProcess | null = null;
let runnerName = 'LearnerRunner';
let generation = 0;

/** A learner's process that is up: the one we have, or a new one (a load failure here is the run's failure). */
async function ready(): Promise<LearnerProcess | Exclude<RunOutcome, { kind: 'done' }>> {
  if (learner !== null && !learner.gone) return learner;
  learner = null;
  const started = await LearnerProcess.start(job.file, job.dir, ++generation, control, job.lang);
  if (started.kind === 'ready') {
    learner = started.process;
    runnerName = started.runnerName;
    return learner;
  }
  control.clearKill();
  if (started.kind === 'load_error') return { kind: 'crashed', error: started.error, output: '', durationMs: 0 };
  const error = started.killed
    ? { name: 'Timeout', message: t('grade.process.loadTimeout') }
    : { name: 'LearnerGone', message: t('grade.process.goneWhileLoading', { exit: describeExit(started.exit) }) };
  return { kind: 'crashed', error, output: '', durationMs: 0 };
}

function describeExit(exit: { code: number | null; signal: string | null }): string {
  return exit.signal !== null ? t('grade.process.killedBy', { signal: exit.signal }) : t('grade.process.exitCode', { code: String(exit.code) });
}

const proxy = () =>
  proxyRunnerClass(
    () => {
      if (learner === null) throw new Error("faultlab: no learner's process");
      return learner;
    },
    control,
    runnerName,
  );

/**
 * After runs on the current process: was it killed by the watchdog, or did it die? Then it is replaced (the
 * next run gets a new one) and the outcome says so; null when all is well.
 */
async function afterRuns(output: string, started: number): Promise<Exclude<RunOutcome, { kind: 'done' | 'crashed' }> | null> {
  const killed = !control.settle();
  if (!killed && learner !== null && !learner.gone) return null;
  const step = control.currentStep;
  const gone = learner!;
  learner = null;
  const protocol = gone.protocolBroken;
  await gone.dispose();
  const exit = await gone.exited;
  control.clearKill();
  const durationMs = Math.round(performance.now() - started);
  if (killed) return { kind: 'timeout', step, output, durationMs };
  return { kind: 'died', step, exit, output, durationMs, ...(protocol !== null ? { protocol } : {}) };
}

/** One run of the scenario (with added faults) by the learner's runner, however it ends. */
async function runOne(scenario: Scenario, added: readonly FaultSpec[]): Promise<RunOutcome> {
  const process = await ready();
  if (!(process instanceof LearnerProcess)) return process;
  const started = performance.now();
  let run: RunResult | null = null;
  let error: unknown = null;
  try {
    run = judge(simulate(scenario, { runner: proxy(), seed: job.seed, storage: 'memory', maxSteps: job.maxSteps, extraFaults: added }));
  } catch (e) {
    error = e;
  }
  const output = learner?.takeOutput() ?? '';
  const lost = await afterRuns(output, started);
  if (lost !== null) return lost;
  const durationMs = Math.round(performance.now() - started);
  if (run === null) return { kind: 'crashed', error: thrown(error), output, durationMs };
  return { kind: 'done', run, output, durationMs };
}


async function exploreScenario(scenario: Scenario, base: RunResult): Promise<Explored> {
  const started = performance.now();
  const tally = new Tally();
  let schedules = 0;
  let broke = 0;
  let stopped: Explored['stopped'] = null;
  for (const added of depthOneSchedules(base)) {
    const outcome = await runOne(scenario, added);
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
  if (first !== undefined) finding = await shrunk(scenario, first);
  const fired = Object.values(tally.fired).reduce((a, b) => a + b, 0);
  const planned = Object.values(tally.planned).reduce((a, b) => a + b, 0);
  return { schedules, broke, violations, finding, stopped, fired, planned, durationMs: Math.round(performance.now() - started) };
}

/** The violation shrunk to its smallest schedule (src/explore's shrink, run through the learner's process). */
async function shrunk(scenario: Scenario, violation: Explored['violations'][number]): Promise<NonNullable<Explored['finding']>> {
  const unshrunk = { check: violation.check, found: violation.added, minimal: [...scenario.faults, ...violation.added], message: violation.message, run: null, schedules: violation.schedules };
  const process = await ready();
  if (!(process instanceof LearnerProcess)) return unshrunk;
  const target: Target = { runner: proxy(), seed: job.seed, storage: 'memory' };
  let result: NonNullable<Explored['finding']> = unshrunk;
  try {
    const finding = findingFor(scenario, violation.check, violation.added, violation.schedules, target);
    result = { check: violation.check, found: violation.added, minimal: finding.minimal, message: finding.message, run: finding.run, schedules: violation.schedules };
  } catch {
    // a runner that does not break it again the same way (or a process that died meanwhile): keep the schedule as found
  }
  learner?.takeOutput();
  const lost = await afterRuns('', performance.now());
  return lost === null ? result : unshrunk;
}

async function main(): Promise<void> {
  const first = await ready();
  if (!(first instanceof LearnerProcess)) {
    post({ type: 'load_error', error: first.kind === 'crashed' ? first.error : { name: 'LearnerGone', message: t('grade.process.didNotStart') } });
    return;
  }
  post({ type: 'loaded', runnerName });
  const bases: Array<RunResult | null> = [];
  for (const [index, scenario] of job.scenarios.entries()) {
    if (job.skip[index]) {
      bases.push(null);
      continue;
    }
    const outcome = await runOne(scenario, []);
    bases.push(outcome.kind === 'done' && outcome.run.runnerError === null ? outcome.run : null);
    post({ type: 'fixed', index, outcome });
  }
  if (!job.explore) return;
  let halted: string | null = null;
  for (const [index, scenario] of job.scenarios.entries()) {
    if (job.skip[index]) continue;
    const base = bases[index];
    if (halted !== null) {
      post({ type: 'explored', index, explored: null, reason: halted });
      continue;
    }
    if (base === null || base === undefined) {
      post({ type: 'explored', index, explored: null, reason: t('grade.notExplored.didNotEnd') });
      continue;
    }
    const explored = await exploreScenario(scenario, base);
    if (explored.stopped !== null) halted = t(explored.stopped.outcome.kind === 'timeout' ? 'grade.notExplored.hung' : 'grade.notExplored.died', { id: scenario.id });
    post({ type: 'explored', index, explored });
  }
}

try {
  await main();
  post({ type: 'finished' });
} catch (error) {
  post({ type: 'failed', error: thrown(error) });
} finally {
  await (learner as LearnerProcess | null)?.dispose();
}
