/**
 * A run's time limit is the learner's: it counts only while the box has the ball — from a request or an answer
 * sent to it until its next message — never while the harness works on one of its calls (on a busy machine, or
 * beside a class of spinning submissions, that can be long). A box that spins is still stopped at its limit.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Box } from '../../src/box/Box.js';
import type { RunnerDeps } from '../../src/runner/BaseRunner.js';
import { initialState } from '../../src/runner/state.js';
import { scenario } from '../support.js';
import { tempFolder } from '../tempFolder.js';

const work = tempFolder('time-limit');
const LIMIT_MS = 300;

/** A runner whose step makes one call to its tools, then returns — or, `spinning`, never returns. */
function runnerFile(name: string, spinning: boolean): string {
  const file = join(work, `${name}.ts`);
  writeFileSync(file, `import { BaseRunner } from './BaseRunner.js';\nexport class LearnerRunner extends BaseRunner {\n  step(state: any) {\n    (this as any).tools.execute({ kind: 'tool', name: 'search_docs', args: { query: 'camera' } }, { taskId: 't', call: 1, attempt: 1 });\n    ${spinning ? 'for (;;) {}' : 'return state;'}\n  }\n}\n`);
  return file;
}

/** Deps whose tool takes the harness `harnessMs` of real time to answer. */
function slowDeps(harnessMs: number): RunnerDeps {
  return {
    policy: { nextAction: () => ({ kind: 'finish', status: 'succeeded' }) },
    events: {} as RunnerDeps['events'],
    tools: { execute: () => new Promise((answer) => setTimeout(() => answer(['camera-care']), harnessMs)) },
  } as unknown as RunnerDeps;
}

async function oneStep(file: string, harnessMs: number): Promise<{ returned: boolean; killed: boolean }> {
  const opened = await Box.open(file, { runTimeoutMs: LIMIT_MS });
  if (opened.kind !== 'ready') throw new Error(`did not load: ${JSON.stringify(opened)}`);
  const box = opened.box;
  try {
    box.beginRun();
    const instance = await box.build(slowDeps(harnessMs));
    const state = initialState(scenario('happy_path').task);
    const returned = await box.step(instance, state).then(
      () => true,
      () => false,
    );
    box.endRun();
    return { returned, killed: (await box.lost())?.killed ?? false };
  } finally {
    await box.dispose();
  }
}

describe("a run's time limit", () => {
  it('does not count the harness answering a call: a harness three times the limit slow costs the learner nothing', async () => {
    expect(await oneStep(runnerFile('answers', false), 3 * LIMIT_MS)).toEqual({ returned: true, killed: false });
  });

  it('still stops a box that spins once it has the ball again', async () => {
    expect(await oneStep(runnerFile('spins', true), 10)).toEqual({ returned: false, killed: true });
  });
});
