/**
 * What a box hands the harness is the learner's, whatever it is: a thrown value that is no Error (no prototype,
 * a Proxy that throws on every question, an Error whose message getter throws, a string), a state JSON cannot
 * carry (a BigInt, 5,000 levels deep), a state or a call's arguments of the wrong shape. Each is that run's
 * failure, said in a sentence, with exit 1 — never faultlab's "internal error" (exit 70), never "did the code
 * call process.exit()?" for a box that died of it. One grade per fixture, every case a scenario of its own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support.js';
import { tempFolder } from '../tempFolder.js';

const HOSTILE = join(import.meta.dirname, '..', 'fixtures', 'learners', 'hostile');
const out = tempFolder('values');

/** Grade `fixture` on `ids` as written; each scenario's first line of its message, by id. */
async function messages(fixture: string, ids: string[]): Promise<{ code: number; stderr: string; byId: Record<string, string> }> {
  const json = join(out, `${fixture}.json`);
  const graded = await cli(['grade', join(HOSTILE, fixture, 'LearnerRunner.ts'), ...ids.flatMap((id) => ['--scenarios', id]), '--no-explore', '--json', json]);
  const doc = JSON.parse(readFileSync(json, 'utf8')) as { tests: Array<{ name: string; message: string | null }> };
  const byId = Object.fromEntries(doc.tests.map((test) => [test.name.split(':')[0]!, (test.message ?? '').split('\n')[0]!]));
  return { code: graded.code, stderr: graded.stderr, byId };
}

describe('a thrown value that is no Error, and a state JSON cannot carry', () => {
  it('each fails its run with what it was — not as a dead process, not as a bug in faultlab', async () => {
    const { code, stderr, byId } = await messages('throws-non-error', ['happy_path', 'read_only', 'lost_reply', 'crash_after_commit', 'budget_exhausted', 'payload_conflict']);
    expect([code, stderr]).toEqual([1, '']);
    expect(byId.happy_path).toBe('the runner threw Error at step 1: threw a non-Error value: [Object: null prototype] {}');
    expect(byId.read_only).toMatch(/^the runner threw Error at step 1: threw a non-Error value: Proxy \[/);
    expect(byId.lost_reply).toBe('the runner threw Error at step 1: threw something the grader could not read');
    expect(byId.crash_after_commit).toBe('the runner threw TypeError at step 1: step returned a state that cannot be sent to the grader: Do not know how to serialize a BigInt');
    expect(byId.budget_exhausted).toBe('the runner threw TypeError at step 1: step returned a state that cannot be sent to the grader: Maximum call stack size exceeded');
    expect(byId.payload_conflict).toBe('the runner threw Error at step 1: threw a non-Error value: a plain string');
  });
});

describe('a state, a label or an action of the wrong shape', () => {
  it('fails that run with the field that is wrong, exit 1, never an internal error', async () => {
    const { code, stderr, byId } = await messages('hands-bad-values', ['happy_path', 'read_only', 'lost_reply', 'crash_after_commit', 'budget_exhausted', 'payload_conflict']);
    expect([code, stderr]).toEqual([1, '']);
    expect(byId.happy_path).toContain('step returned a state faultlab cannot take: state.task is not an object');
    expect(byId.read_only).toContain("events.save() was handed a value faultlab cannot take: state.pending.kind is not 'tool'");
    expect(byId.lost_reply).toContain('events.save() was handed a value faultlab cannot take: label is not a string');
    expect(byId.crash_after_commit).toContain('tools.execute() was handed a value faultlab cannot take: action.args is not an object');
    expect(byId.budget_exhausted).toContain('step returned a state faultlab cannot take: state.calls is not a whole number (0 or more)');
    expect(byId.payload_conflict).toContain('events.save() was handed a value faultlab cannot take: state.pending.args is not an object');
  });
});

describe('escape codes in what a learner prints and throws', () => {
  const file = join(HOSTILE, 'escape-codes', 'LearnerRunner.ts');
  /** What a terminal would act on: C0 controls but newline and tab, DEL, C1 controls. */
  const ACTS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  it('reach no terminal: grade and run show them as their codes', async () => {
    const graded = await cli(['grade', file, '--scenarios', 'happy_path', '--no-explore']);
    const ran = await cli(['run', 'happy_path', '--runner', file]);
    for (const text of [graded.stdout, graded.stderr, ran.stdout, ran.stderr]) expect(text).not.toMatch(ACTS);
    expect(graded.stdout).toContain('\\u001b[2J\\u001b]0;owned\\u0007\\u001b[31mALL TESTS PASSED\\u001b[0m');
    expect(ran.stderr).toContain('\\u001b[2J'); // what it printed, passed on to stderr
  });
});

describe('a frame forged on the channel', () => {
  it("naming the target __proto__ is the box breaking the channel, not an error in faultlab's code", async () => {
    const file = join(out, 'Proto.ts');
    writeFileSync(
      file,
      `import { BaseRunner } from './BaseRunner.js';
import { writeSync } from 'node:fs';
export class LearnerRunner extends BaseRunner {
  step(state: any) {
    const body = Buffer.from(JSON.stringify({ t: 'call', instance: 1, target: '__proto__', method: 'includes', args: [] }));
    const head = Buffer.alloc(4);
    head.writeUInt32LE(body.length, 0);
    writeSync(3, Buffer.concat([head, body]));
    for (;;) {}
  }
}
`,
    );
    const json = join(out, 'proto.json');
    const graded = await cli(['grade', file, '--scenarios', 'happy_path', '--no-explore', '--json', json]);
    const message = (JSON.parse(readFileSync(json, 'utf8')) as { tests: Array<{ message: string }> }).tests[0]!.message.split('\n')[0];
    expect([graded.code, message]).toEqual([1, "the learner's process wrote something of its own on the grader's channel in step 1 (a call the grader does not answer: __proto__.includes), and the grader stopped it: a runner talks to the world only through its deps"]);
  });
});
