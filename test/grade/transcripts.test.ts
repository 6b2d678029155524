/**
 * Explorations already made (src/box/transcript.ts, src/grade/transcripts.ts, src/grade/explorations.ts): the
 * harness is deterministic, so a runner that says, to every word the harness says in every run of an exploration,
 * what was said there has that exploration's runs — and its verdicts. Held here: the reference's exploration is
 * recorded whole, once per run; the build's recorded file is the one recorded now; the solution answers every run as
 * the reference does, and so does one that prints as it goes, while a step that differs (a mistake, a correct step
 * cut otherwise, one that remembers) does not; and a grade held to an exploration gives the very grade that runs every schedule gives.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../src/core/defaults.js';
import { depthOneSchedules } from '../../src/explore/enumerate.js';
import { gradeSubmission, gradeSubmissions } from '../../src/grade/gradeSubmission.js';
import { Explorations } from '../../src/grade/explorations.js';
import { TranscriptRecorder } from '../../src/box/transcript.js';
import { runForVerdict } from '../../src/explore/runSchedule.js';
import { ReferenceRunner } from '../../src/runner/ReferenceRunner.js';
import type { RunnerClass } from '../../src/runner/BaseRunner.js';
import { recordedExplorations, referenceTranscripts, runDigest, explorationKey } from '../../src/grade/transcripts.js';
import type { ScenarioGrade } from '../../src/grade/types.js';
import { simulate } from '../../src/sim/simulate.js';
import { judge } from '../../src/check/verdict.js';
import { openRunner } from '../../src/target/runners.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { GRADED_TARGETS } from '../../src/core/paths.js';
import { tempFolder } from '../tempFolder.js';

/** The graded set: the 17, then the scenarios the grade adds (scenarios/graded). */
const GRADED = loadScenarios([...GRADED_TARGETS]);
const byId = (id: string) => GRADED.find((s) => s.id === id)!;

const fixture = (name: string) => join('test', 'fixtures', 'learners', name, 'LearnerRunner.ts');

describe("the reference's exploration, recorded", () => {
  it('holds every run once — the run as written, it resumed from each pause, each schedule from its pause — and the figures a grade gives', async () => {
    const scenario = byId('lost_reply');
    const set = await referenceTranscripts(scenario, DEFAULT_SEED);
    const reference = judge(await simulate(scenario, { seed: DEFAULT_SEED, storage: 'memory' }));
    expect(set.by).toBe('reference');
    expect(set.asWritten).toBe(runDigest(reference));
    expect(set.explored).toEqual({ schedules: depthOneSchedules(reference).length, broke: 0, fired: expect.any(Number), planned: expect.any(Number) });
    expect(set.explored!.schedules).toBe(58);
    // 58 schedules and the fork check's resumed runs make 44 distinct runs (a fault that never fires repeats one).
    expect(set.transcripts).toHaveLength(44);
    expect(new Set(set.transcripts.map((t) => t.script)).size).toBe(44);
  });

  it('is what the build recorded for the graded set, at the default seed', async () => {
    const built = recordedExplorations();
    for (const scenario of GRADED) expect(built.has(explorationKey(scenario, DEFAULT_SEED))).toBe(true);
    const scenario = byId('crash_after_commit');
    expect(built.get(explorationKey(scenario, DEFAULT_SEED))).toEqual(await referenceTranscripts(scenario, DEFAULT_SEED));
  });
});

describe('a run not to hold another runner to', () => {
  it('a step that throws an error of its own (what it threw is not in the digest) marks the recording', async () => {
    const recorder = new TranscriptRecorder(() => {});
    const Throws = class {
      constructor(_deps: unknown) {}
      async step(): Promise<never> {
        throw new Error('mine');
      }
    } as unknown as RunnerClass;
    await runForVerdict(byId('happy_path'), [], { runner: recorder.runnerClass(Throws), hooks: recorder.hooks, seed: DEFAULT_SEED, storage: 'memory' });
    expect(recorder.threwItsOwn).toBe(true);
    const reference = new TranscriptRecorder(() => {});
    await runForVerdict(byId('crash_after_commit'), [], { runner: reference.runnerClass(ReferenceRunner), hooks: reference.hooks, seed: DEFAULT_SEED, storage: 'memory' });
    expect(reference.threwItsOwn).toBe(false); // a crash it lets through is the harness's own error
  });
});

describe('a runner held to the transcripts', () => {
  /** How many of the scenario's recorded runs the file's runner answers as the reference did (and how many there are). */
  async function answered(file: string, id: string): Promise<{ same: number; of: number }> {
    const set = await referenceTranscripts(byId(id), DEFAULT_SEED);
    const opened = await openRunner({ kind: 'file', file }, file);
    try {
      const digests = await opened.check!(set.transcripts.map((t) => t.script));
      return { same: digests.filter((d, i) => d === set.transcripts[i]!.digest).length, of: set.transcripts.length };
    } finally {
      await opened.close();
    }
  }

  it('the solution answers every run as the reference does', async () => {
    for (const id of ['happy_path', 'crash_after_commit', 'breaker_refuses_attempt']) {
      const { same, of } = await answered(fixture('solution'), id);
      expect(same).toBe(of);
    }
  });

  it('a step with a mistake answers some runs otherwise', async () => {
    const { same, of } = await answered(join('test', 'fixtures', 'learners', 'mistakes', 'observed-before-clearing', 'LearnerRunner.ts'), 'happy_path');
    expect(same).toBeLessThan(of);
  });

  it('a correct step cut otherwise (it stops after prepared) answers nearly none as the reference: its runs are not the reference’s', async () => {
    const { same, of } = await answered(fixture('different'), 'happy_path');
    expect(of).toBe(40);
    expect(same).toBe(3);
  });

  it('a step that remembers what it was handed answers a run it has seen otherwise', async () => {
    const set = await referenceTranscripts(byId('happy_path'), DEFAULT_SEED);
    const opened = await openRunner({ kind: 'file', file: fixture('remembers') }, 'remembers');
    try {
      const scripts = set.transcripts.map((t) => t.script);
      const differ = (digests: string[]) => digests.filter((d, i) => d !== set.transcripts[i]!.digest).length;
      // The run as written (recorded first) is its first sight of every state; the runs resumed from its pauses repeat them.
      const first = await opened.check!(scripts);
      expect(first[0]).toBe(set.transcripts[0]!.digest);
      expect(differ(first)).toBeGreaterThan(scripts.length / 2);
      expect(differ(await opened.check!(scripts))).toBe(scripts.length);
    } finally {
      await opened.close();
    }
  });

  it('what a step prints is no part of its answers: a step that prints as it goes answers as the reference', async () => {
    const { same, of } = await answered(join('test', 'fixtures', 'learners', 'Chatty.ts'), 'happy_path');
    expect(same).toBe(of);
  });
});

/** An explored grade without the words and figures that say how it was made. */
const gist = (g: ScenarioGrade) => ({ id: g.id, status: g.status, problem: g.problem, schedules: g.coverage?.schedules, broke: g.coverage?.broke, divergence: g.divergence, replay: g.replay });

describe('a grade held to an exploration already made', () => {
  it('is the grade that runs every schedule: the solution, every scenario held to the reference’s', async () => {
    const held = await gradeSubmission(fixture('solution'), { scenarios: GRADED, replayDir: null });
    const run = await gradeSubmission(fixture('solution'), { scenarios: GRADED, replayDir: null, explorations: null });
    expect(held.explored.map(gist)).toEqual(run.explored.map(gist));
    expect(held.passed).toBe(40);
    expect(held.explored.map((g) => g.coverage?.sameRunsAs)).toEqual(GRADED.map(() => 'reference'));
    expect(run.explored.map((g) => g.coverage?.sameRunsAs)).toEqual(GRADED.map(() => undefined));
  }, 60_000);

  it('in a class, a way of answering is explored once: the next submission that answers the same is held to it', async () => {
    const dir = tempFolder('held');
    const files = ['ada', 'bo'].map((name) => {
      mkdirSync(join(dir, name));
      cpSync(fixture('different'), join(dir, name, 'LearnerRunner.ts'));
      return join(dir, name, 'LearnerRunner.ts');
    });
    const scenarios = ['happy_path', 'lost_reply', 'crash_after_commit'].map(byId);
    const [ada, bo] = await gradeSubmissions(files, { scenarios, replayDir: null, concurrency: 1 });
    expect(ada!.explored.map((g) => g.coverage?.sameRunsAs)).toEqual([undefined, undefined, undefined]);
    expect(bo!.explored.map((g) => g.coverage?.sameRunsAs)).toEqual(['submission', 'submission', 'submission']);
    expect(bo!.explored.map((g) => ({ ...gist(g), replay: undefined }))).toEqual(ada!.explored.map((g) => ({ ...gist(g), replay: undefined })));
    expect(bo!.passed).toBe(6);
  }, 60_000);

  it('two at a time: one explores each scenario, the others wait for it (lending their place) and are held to it', async () => {
    const dir = tempFolder('held');
    const files = ['ada', 'bo', 'cy'].map((name) => {
      mkdirSync(join(dir, name));
      cpSync(fixture('different'), join(dir, name, 'LearnerRunner.ts'));
      return join(dir, name, 'LearnerRunner.ts');
    });
    const scenarios = ['happy_path', 'lost_reply'].map(byId);
    const started: number[] = [];
    const grades = await gradeSubmissions(files, { scenarios, replayDir: null, concurrency: 2, onStart: (i) => started.push(i) });
    expect(started).toEqual([0, 1, 2]);
    for (const [i] of scenarios.entries()) {
      const how = grades.map((g) => g.explored[i]!.coverage?.sameRunsAs);
      expect(how.filter((h) => h === undefined)).toHaveLength(1); // explored once, run by run
      expect(how.filter((h) => h === 'submission')).toHaveLength(2);
    }
    expect(grades.map((g) => g.passed)).toEqual([4, 4, 4]);
  }, 60_000);

  it('a mistake is explored run by run, and fails as it does with nothing held', async () => {
    const file = join('test', 'fixtures', 'learners', 'mistakes', 'observed-before-clearing', 'LearnerRunner.ts');
    const scenarios = ['happy_path', 'crash_after_prepared'].map(byId);
    const held = await gradeSubmission(file, { scenarios, replayDir: null });
    const run = await gradeSubmission(file, { scenarios, replayDir: null, explorations: null });
    expect(held.explored.map(gist)).toEqual(run.explored.map(gist));
    expect(held.explored.some((g) => g.status === 'fail')).toBe(true);
    expect(held.explored.map((g) => g.coverage?.sameRunsAs)).toEqual([undefined, undefined]);
  }, 60_000);
});

describe('the explorations already made, as a class shares them (explorations.ts)', () => {
  const scenario = byId('happy_path');
  const set = (asWritten: string, by: 'reference' | 'submission' = 'submission') => ({ by, transcripts: [], asWritten, explored: { schedules: 1, broke: 0, fired: 1, planned: 1 } });
  const thread = (name: string) => ({ name }) as unknown as import('node:worker_threads').Worker;

  it('the first to ask explores; one that asks the same meanwhile waits for it and gets what it recorded', async () => {
    const book = new Explorations();
    book.prepare([scenario], 99); // not recorded by the build at this seed: recorded in a thread of its own
    const a = thread('a');
    const first = await book.sets(scenario, 99, 'D', 0, a); // the reference's run as written is not D: none to try
    expect(first).toEqual({ sets: [], explore: true });
    const waits: boolean[] = [];
    const second = book.sets(scenario, 99, 'D', 0, thread('b'), (w) => waits.push(w));
    await new Promise((r) => setTimeout(r, 50));
    expect(waits).toEqual([true]);
    book.recorded(scenario, 99, 'D', set('D'));
    expect(await second).toEqual({ sets: [set('D')], explore: false });
    expect(waits).toEqual([true, false]);
  }, 30_000);

  it('an exploration not kept (a rule broke) or a thread that ended sends the waiting one to explore', async () => {
    const book = new Explorations();
    book.prepare([scenario], 99);
    const [a, b, c] = [thread('a'), thread('b'), thread('c')];
    await book.sets(scenario, 99, 'E', 0, a);
    const asked = book.sets(scenario, 99, 'E', 0, b);
    book.recorded(scenario, 99, 'E', null);
    expect(await asked).toEqual({ sets: [], explore: true }); // b explores it now
    let told = false;
    const after = book.sets(scenario, 99, 'E', 0, c).then((answer) => ((told = true), answer));
    book.release(a); // not exploring it any more: nothing changes for c
    await new Promise((r) => setTimeout(r, 50));
    expect(told).toBe(false);
    book.release(b); // b was exploring: it ended without a word
    expect(await after).toEqual({ sets: [], explore: true });
  }, 30_000);
});
