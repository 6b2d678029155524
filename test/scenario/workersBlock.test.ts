/**
 * The `workers:` block and the worker faults in the ordinary scenario format: bad input is reported at its
 * file, line, column and field, every problem at once, like every other field.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, SCENARIOS_DIR } from '../../src/core/paths.js';
import { loadAll, loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/ScenarioError.js';
import { problemLines } from '../support.js';
import { tempFolder } from '../tempFolder.js';

const dir = tempFolder('workers-block');
const ZOMBIE = readFileSync(join(SCENARIOS_DIR, 'workers', 'zombie_after_pause.yaml'), 'utf8');
const HAPPY = readFileSync(join(SCENARIOS_DIR, 'happy_path.yaml'), 'utf8');

function problems(name: string, text: string): string[] {
  const path = join(dir, name);
  writeFileSync(path, text);
  try {
    loadAll([path], { cwd: PACKAGE_ROOT });
  } catch (error) {
    if (error instanceof ScenarioError) return problemLines(error).map((line) => line.replace(`${dir}/`, ''));
    throw error;
  }
  return [];
}

describe('a workers block', () => {
  it('fills the defaults: a lease of 500 ms, a sweep every 250 ms, a poll every 100 ms, no schedule', () => {
    expect(loadScenario('zombie_after_pause').workers).toEqual({ count: 2, lease_ms: 500, sweep_every_ms: 250, poll_ms: 100, schedule: [] });
    expect(loadScenario('rescuer_races_completion').workers?.schedule).toEqual([{ choice: 12, run: 'sweeper' }]);
  });

  it('refuses a count out of range, a schedule naming no actor, a worker fault without ms — each at its line and field', () => {
    const text = ZOMBIE.replace('  count: 2', '  count: 9\n  schedule:\n    - { choice: 0, run: w9 }').replace('    ms: 1500\n', '');
    expect(problems('bad.yaml', text)).toEqual([
      'bad.yaml:31:10: workers.count: must be an integer from 1 to 8 (got 9)',
      'bad.yaml:33:17: workers.schedule[0].choice: must be an integer from 1 to 100,000 (got 0)',
      'bad.yaml:33:25: workers.schedule[0].run: must match ^(w[1-8]|sweeper)$ (got "w9")',
      'bad.yaml:35:5: faults[0].ms: missing (required)',
    ]);
  });

  it('names the worker a fault or a schedule entry cannot mean: no such worker in this scenario', () => {
    const text = ZOMBIE.replace('worker: w1,', 'worker: w3,').replace('  count: 2', '  count: 2\n  schedule:\n    - { choice: 4, run: w4 }');
    expect(problems('unknown.yaml', text)).toEqual([
      'unknown.yaml:36:19: faults[0].at.worker: no worker w3: this scenario has 2 (w1, w2)',
      'unknown.yaml:33:25: workers.schedule[0].run: no worker w4: this scenario has 2 (w1, w2, sweeper)',
    ]);
  });

  it('refuses a worker fault, or figures of the queue, in a scenario without a workers block', () => {
    const text = HAPPY.replace('faults: []', 'faults:\n  - kind: worker_pause\n    at: { worker: w1, point: request }\n    ms: 100').replace(
      'expect:\n',
      'expect:\n  workers: { grants: 1 }\n',
    );
    expect(problems('lonely.yaml', text)).toEqual([
      "lonely.yaml:32:3: expect.workers: the queue's figures need a workers block: without one there is no queue",
      'lonely.yaml:29:11: faults[0].at.worker: worker_pause names a worker, and this scenario has no workers block: add one (workers: {count: 2}), or drop the worker',
    ]);
  });

  it('refuses a worker fault with no point, and a point on a chapter fault', () => {
    const text = ZOMBIE.replace('point: request, ', '').replace(
      'faults:\n',
      'faults:\n  - kind: lost_reply\n    at: { tool: reserve, point: request }\n',
    );
    expect(problems('points.yaml', text)).toEqual([
      expect.stringMatching(/^points\.yaml:34:26: faults\[0\]\.at\.point: not allowed here for this fault kind/),
      'points.yaml:36:9: faults[1].at.point: missing (required)',
    ]);
  });
});
