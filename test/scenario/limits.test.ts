/**
 * The limits' settings (docs/spec.md §13–§14) as the loader reads them: what a schema cannot say is still said,
 * at file:line:col — a retention that cannot cover every request, a charge with no service, a condition that
 * would read something a later step changes — and the CLI exits 2 before anything runs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, SCENARIOS_DIR } from '../../src/core/paths.js';
import { ScriptedPolicy } from '../../src/runner/policy.js';
import { initialState } from '../../src/runner/state.js';
import { loadAll, loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/ScenarioError.js';
import { tempFolder } from '../tempFolder.js';
import { cli, problemLines } from '../support.js';

const dir = tempFolder('limits-load');
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const problems = (path: string) => {
  try {
    loadAll([path], { cwd: PACKAGE_ROOT });
  } catch (error) {
    if (error instanceof ScenarioError) return problemLines(error).map((line) => line.replace(`${dir}/`, ''));
    throw error;
  }
  return [];
};
const TOMBSTONE = readFileSync(join(SCENARIOS_DIR, 'limits', 'purge_late_retry_tombstone.yaml'), 'utf8');
const COMPENSATION = readFileSync(join(SCENARIOS_DIR, 'limits', 'remote_compensation_declined.yaml'), 'utf8');

describe('retention', () => {
  it('refuses receipts_outlive_requests without a deadline: without one no retention covers every request', () => {
    const text = TOMBSTONE.replace('rules: [refuse_purged_keys]', 'rules: [receipts_outlive_requests]\n  requests_ms: 60000');
    const [problem] = problems(file('outlive.yaml', text));
    expect(problem).toMatch(/^outlive\.yaml:\d+:\d+: retention\.rules: receipts_outlive_requests keeps every receipt as long as a request may still arrive — bounded only when requests expire: add the rule deadline/);
  });

  it('asks for requests_ms when a rule needs it', () => {
    const [problem] = problems(file('validity.yaml', TOMBSTONE.replace('rules: [refuse_purged_keys]', 'rules: [deadline]')));
    expect(problem).toMatch(/^validity\.yaml:\d+:\d+: retention: the rules deadline and receipts_outlive_requests need requests_ms/);
  });

  it('refuses an unknown rule, a redelivery without its delay and a late delivery without its wait, by the schema', () => {
    const text = TOMBSTONE.replace('rules: [refuse_purged_keys]', 'rules: [forget_nothing]')
      .replace('{ kind: late_delivery, at: { tool: reserve, attempt: 2 }, delay_ms: 7200000 }', '{ kind: late_delivery, at: { tool: reserve, attempt: 2 } }\n  - { kind: redeliver_task, at: { call: 1 } }');
    const found = problems(file('schema.yaml', text)).join('\n');
    expect(found).toContain('retention.rules[0]: must be one of "deadline", "receipts_outlive_requests", "refuse_purged_keys", "finished_tasks" (got "forget_nothing")');
    expect(found).toMatch(/faults\[1\]\.delay_ms: missing \(required\)/);
    expect(found).toMatch(/faults\[2\]\.at\.after_ms: missing \(required\)/);
    expect(found).toMatch(/faults\[2\]\.at\.call: not allowed here for this fault kind \(.*redeliver_task only after_ms/);
  });
});

describe('many workers', () => {
  it('refuses a workers block beside the limits: their harness runs neither the purge nor the relay', () => {
    const [problem] = problems(file('workers.yaml', TOMBSTONE.replace('retention:\n', 'workers:\n  count: 2\nretention:\n')));
    expect(problem).toMatch(/^workers\.yaml:\d+:\d+: workers: many workers and the limits past the chapter \(a retention, a remote service, late_delivery, redeliver_task\) do not go together yet/);
  });
});

describe('the remote service', () => {
  it('refuses a task that may charge when the scenario has no remote service', () => {
    const text = COMPENSATION.replace(/remote:\n  balance: 100\n  retry: query\n/, '');
    const [problem] = problems(file('noremote.yaml', text));
    expect(problem).toMatch(/^noremote\.yaml:\d+:\d+: task\.allow: the task may call charge, charge_status, but the scenario has no remote service/);
  });
});

describe('a step taken only when its condition holds (docs/spec.md §14.6)', () => {
  it('refuses a condition that reads a tool no earlier step calls', () => {
    const text = COMPENSATION.replace('when: { "@charge.status": declined }', 'when: { "@charge_status.found": false }');
    expect(problems(file('earlier.yaml', text))[0]).toMatch(/when\.@charge_status\.found: @charge_status\.found refers to charge_status, which no earlier step calls/);
  });

  it('refuses a condition on an observation a later step replaces: the stateless policy reads it again at every decision', () => {
    const text = COMPENSATION.replace('    - finish: gave_up\n', '    - charge: { ref: again, amount: 1 }\n    - finish: gave_up\n');
    expect(problems(file('replaced.yaml', text))[0]).toMatch(/the condition @charge\.status reads what charge answered, and step 5 calls charge again/);
  });

  it('skips the steps whose condition does not hold, and answers the same from the same state (a crash changes nothing)', () => {
    const scenario = loadScenario('remote_compensation_declined');
    const policy = new ScriptedPolicy(scenario.script);
    const state = initialState(scenario.task);
    state.decisions = 3;
    state.observations = { get_stock: { version: 0 }, reserve: { reservation_id: 'res_1' }, charge: { status: 'charged' } };
    expect(policy.nextAction(state)).toEqual({ kind: 'finish', status: 'succeeded' });
    state.observations.charge = { status: 'declined' };
    expect(policy.nextAction(state)).toEqual({ kind: 'tool', name: 'release', args: { item: 'camera', qty: 1, of: 'res_1' } });
    state.decisions = 4;
    expect(policy.nextAction(structuredClone(state))).toEqual({ kind: 'finish', status: 'gave_up' });
    expect(policy.nextAction(structuredClone(state))).toEqual({ kind: 'finish', status: 'gave_up' });
  });

  it('exits 2 through the CLI, running nothing', async () => {
    const text = COMPENSATION.replace('when: { "@charge.status": declined }', 'when: { "@charge_status.found": false }');
    const out = await cli(['run', file('cli.yaml', text)]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
  });
});
