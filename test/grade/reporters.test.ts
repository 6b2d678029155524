/**
 * The teacher's two files. results.json must have Exercism's v3 shape (checked against a JSON Schema written
 * from the spec) with its statuses and output cap; the JUnit XML must parse — with a strict parser, and with
 * Python's expat where it is installed — and carry the right counts, messages and escapes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { capOutput, OUTPUT_LIMIT, toExercism, toExercismFile, TRUNCATION_MARKER, type ExercismClassFile } from '../../src/grade/reporters/exercism.js';
import { className, toJUnit } from '../../src/grade/reporters/junit.js';
import { escapeAttribute, escapeText } from '../../src/grade/reporters/xml.js';
import type { SubmissionGrade } from '../../src/grade/types.js';
import { renderClassSummary, renderScenario } from '../../src/grade/reporters/terminal.js';
import { PLAIN } from '../../src/render/style.js';
import { message } from '../../src/core/message.js';
import { word } from '../../src/render/words/index.js';
import { gradeAll, gradeExplored, learner, STUB } from './helpers.js';
import { parseXml, type XmlElement } from './xmlParser.js';

/** results.json v3 as exercism.org/docs/building/tooling/test-runners/interface describes it. */
const EXERCISM_V3 = {
  type: 'object',
  required: ['version', 'status', 'tests'],
  additionalProperties: false,
  properties: {
    version: { const: 3 },
    status: { enum: ['pass', 'fail', 'error'] },
    message: { type: ['string', 'null'] },
    tests: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'status'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1 },
          test_code: { type: 'string' },
          status: { enum: ['pass', 'fail', 'error'] },
          message: { type: ['string', 'null'] },
          output: { type: 'string', maxLength: 500 },
          task_id: { type: 'integer', minimum: 1 },
        },
      },
    },
  },
  // the top-level message is required when (and only meaningful when) no test could run
  if: { properties: { status: { const: 'error' } } },
  then: { required: ['message'], properties: { message: { type: 'string', minLength: 1 } } },
  else: { properties: { message: { type: 'null' } } },
};
const validate = new Ajv({ allErrors: true }).compile(EXERCISM_V3);

function valid(document: unknown): string[] {
  return validate(document) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message}`);
}

const child = (node: XmlElement, name: string) => node.children.filter((c) => c.name === name);

describe('Exercism results.json (v3)', () => {
  it('validates for a passing, a failing and an erroring submission', async () => {
    for (const file of [learner('Correct'), learner('NewKeyPerAttempt'), STUB]) expect(valid(toExercism('en', await gradeAll(file)))).toEqual([]);
  });

  it('has one test per scenario in the order graded, named by id, with the scenario number as task_id', async () => {
    const results = toExercism('en', await gradeAll(learner('NewKeyPerAttempt')));
    expect(results.status).toBe('fail');
    expect(results.tests.map((t) => t.task_id)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
    const lost = results.tests[4]!;
    expect(lost.name).toBe('lost_reply: The reply is lost after the commit');
    expect(lost.status).toBe('fail');
    expect(lost.message!.split('\n')).toEqual([
      expect.stringMatching(/^inv3 · a new key on a retry — call 5 \(reserve attempt 2\) used key lost_reply:reserve:call-5, .*a retry must reuse the key made when the action was prepared/),
      'figures: status expected succeeded, got tool_error · pending expected null, got reserve',
      'first divergence from the reference: step 4 (#12): both saved attempt_started, but your reserve has a new key lost_reply:reserve:call-4, the reference kept lost_reply:reserve:2872d1b4…',
      'replay: npx faultlab run scenarios/lost_reply.yaml --runner test/fixtures/learners/NewKeyPerAttempt.ts',
      'lesson: lessons/02-idempotency-keys.md#reused-unchanged-by-every-retry',
    ]);
    expect(lost.test_code).toBe('npx faultlab run scenarios/lost_reply.yaml --runner test/fixtures/learners/NewKeyPerAttempt.ts\n# lost_reply at reserve attempt 1 → succeeded · calls 5 · ledger 1 · stock camera 2');
    expect(results.tests[0]).toMatchObject({ status: 'pass', message: null });
  });

  it("marks the stub's tests as errors (its code threw) and the run as a fail, not an error: the tests did run", async () => {
    const results = toExercism('en', await gradeAll(STUB));
    expect(results.status).toBe('fail');
    expect(results.message).toBeNull();
    expect(new Set(results.tests.map((t) => t.status))).toEqual(new Set(['error']));
  });

  it('reports a file that could not load as a top-level error with its message', async () => {
    const stub = await gradeAll(STUB);
    const unloadable: SubmissionGrade = { ...stub, runnerName: null, loadError: { name: 'Error', message: 'Unparsable.ts:2:3: ERROR: Expected "}"' } };
    const results = toExercism('en', unloadable);
    expect(results).toMatchObject({ status: 'error', message: 'could not load test/fixtures/learners/stub/LearnerRunner.ts: Unparsable.ts:2:3: ERROR: Expected "}"' });
    expect(valid(results)).toEqual([]);
  });

  it("caps a test's output at 500 characters, ending with Exercism's truncation message", async () => {
    expect(capOutput('x'.repeat(OUTPUT_LIMIT))).toBe('x'.repeat(OUTPUT_LIMIT));
    const capped = capOutput('·'.repeat(OUTPUT_LIMIT + 1));
    expect([...capped]).toHaveLength(OUTPUT_LIMIT);
    expect(capped.endsWith(`\n${TRUNCATION_MARKER}`)).toBe(true);
    expect(TRUNCATION_MARKER).toBe('Output was truncated. Please limit to 500 chars');
    const chatty = toExercism('en', await gradeAll(learner('Chatty')));
    const happy = chatty.tests[0]!;
    expect(happy.output!.startsWith('\x1b[33mstep\x1b[0m <calls 0> & "decisions" 0: ·')).toBe(true);
    expect(happy.output!.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(valid(chatty)).toEqual([]);
  });

  it('lists each submission with its own v3 document when several are graded', async () => {
    const [a, b] = [await gradeAll(learner('Correct')), await gradeAll(STUB)];
    expect(toExercismFile('en', [a])).toEqual(toExercism('en', a));
    const file = toExercismFile('en', [a, b]) as ExercismClassFile;
    expect(file.submissions.map((s) => [s.submission, s.name, s.score])).toEqual([
      ['test/fixtures/learners/Correct.ts', 'Correct', { passed: 17, total: 17, as_written: { passed: 17, total: 17 }, explored: null }],
      ['test/fixtures/learners/stub/LearnerRunner.ts', 'stub', { passed: 0, total: 17, as_written: { passed: 0, total: 17 }, explored: null }],
    ]);
    for (const s of file.submissions) expect(valid(s.results)).toEqual([]);
  });
});

describe('JUnit XML', () => {
  it('parses, with one testsuite per submission and one testcase per scenario, and the right counts', async () => {
    const submissions = [await gradeAll(learner('NewKeyPerAttempt')), await gradeAll(STUB), await gradeAll(learner('Correct'))];
    const root = parseXml(toJUnit('en', submissions, 42));
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ tests: '51', failures: '4', errors: '17' });
    const suites = child(root, 'testsuite');
    expect(suites.map((s) => [s.attributes.name, s.attributes.file, s.attributes.tests, s.attributes.failures, s.attributes.errors])).toEqual([
      ['NewKeyPerAttempt', 'test/fixtures/learners/NewKeyPerAttempt.ts', '17', '4', '0'],
      ['stub', 'test/fixtures/learners/stub/LearnerRunner.ts', '17', '0', '17'],
      ['Correct', 'test/fixtures/learners/Correct.ts', '17', '0', '0'],
    ]);
    for (const suite of suites) expect(child(suite, 'testcase')).toHaveLength(17);
  });

  it('makes a broken rule a <failure> whose message is its explanation, and an exception an <error>', async () => {
    const [newKey, stub] = [await gradeAll(learner('NewKeyPerAttempt')), await gradeAll(STUB)];
    const root = parseXml(toJUnit('en', [newKey, stub], 42));
    const [keySuite, stubSuite] = child(root, 'testsuite');
    const lost = child(keySuite!, 'testcase').find((c) => c.attributes.name === 'lost_reply')!;
    expect(lost.attributes.classname).toBe('test.fixtures.learners.NewKeyPerAttempt');
    const [failure] = child(lost, 'failure');
    expect(failure!.attributes.type).toBe('new_key_per_attempt');
    expect(failure!.attributes.message).toBe(word('en', newKey.scenarios[4]!.problem!.message));
    expect(failure!.text).toContain('replay: npx faultlab run scenarios/lost_reply.yaml --runner test/fixtures/learners/NewKeyPerAttempt.ts');
    const [error] = child(child(stubSuite!, 'testcase')[0]!, 'error');
    expect(error!.attributes.type).toBe('not_implemented');
    expect(error!.attributes.message).toMatch(/not implemented yet: execute$/);
    expect(child(child(keySuite!, 'properties')[0]!, 'property').map((p) => [p.attributes.name, p.attributes.value])).toEqual([
      ['runner', 'LearnerRunner'],
      ['seed', '42'],
      ['score', '13/17'],
      ['as_written', '13/17'],
    ]);
  });

  it("keeps anything a learner prints or a message holds: markup, quotes, line breaks, and characters XML forbids made visible", async () => {
    const base = await gradeAll(STUB);
    const hostile = 'a <b> & "c" \'d\' ]]> \x1b[31mred\x1b[0m nul\u0000 lone\uD800 tab\tline\nnext';
    const grade: SubmissionGrade = {
      ...base,
      scenarios: [{ ...base.scenarios[0]!, problem: { ...base.scenarios[0]!.problem!, message: message('check.figure.title', { figure: hostile }) }, output: { text: hostile, cut: false } }],
      total: 1,
    };
    const xml = toJUnit('en', [grade], 42);
    const root = parseXml(xml);
    const testcase = child(child(root, 'testsuite')[0]!, 'testcase')[0]!;
    const visible = 'a <b> & "c" \'d\' ]]> \\x1B[31mred\\x1B[0m nul\\x00 lone\\xD800 tab\tline\nnext';
    expect(child(testcase, 'error')[0]!.attributes.message).toBe(visible);
    expect(child(testcase, 'system-out')[0]!.text).toBe(visible);
  });

  const python = spawnSync('python3', ['-c', 'import xml.parsers.expat'], { encoding: 'utf8' }).status === 0;
  it.runIf(python)("is well-formed for Python's expat parser too", async () => {
    const xml = toJUnit('en', [await gradeAll(learner('Chatty')), await gradeAll(learner('NewKeyPerAttempt'))], 42);
    const script = 'import sys, xml.dom.minidom as m; d = m.parseString(sys.stdin.buffer.read()); print(len(d.getElementsByTagName("testcase")))';
    expect(execFileSync('python3', ['-c', script], { input: xml, encoding: 'utf8' }).trim()).toBe('34');
  });

  it('escapes text and attributes, and names classes after the file', () => {
    expect(escapeText('1 < 2 && 3 > 2')).toBe('1 &lt; 2 &amp;&amp; 3 &gt; 2');
    expect(escapeAttribute('say "hi"\n\'there\'')).toBe('say &quot;hi&quot;&#10;&apos;there&apos;');
    expect(className('submissions/alice/LearnerRunner.ts')).toBe('submissions.alice'); // one classname per submission,
    expect(className('submissions/alice.ts')).toBe('submissions.alice'); // whatever its layout
    expect(className('./bob.mjs')).toBe('bob');
  });
});

describe('both parts of a grade in the files', () => {
  it('gives each scenario explored its own test, after those as written, with the schedules and the replay file', async () => {
    const grade = await gradeExplored(learner('NewKeyPerAttempt'), ['lost_reply']);
    const results = toExercism('en', grade);
    expect(valid(results)).toEqual([]);
    expect(results.tests.map((t) => [t.name, t.status, t.task_id])).toEqual([
      ['lost_reply: The reply is lost after the commit', 'fail', 5],
      ['lost_reply with one added fault at every point: The reply is lost after the commit', 'fail', 5],
    ]);
    const explored = results.tests[1]!;
    expect(explored.test_code).toMatch(/^npx faultlab run \S+lost_reply__inv3\.yaml --runner test\/fixtures\/learners\/NewKeyPerAttempt\.ts\n# one added fault at every point \(its own lost_reply at reserve attempt 1 kept\) → every invariant holds$/);
    expect(explored.message!.split('\n')[0]).toMatch(/^inv3 · a new key on a retry — lost_reply with lost_reply at reserve attempt 1: call 5 \(reserve attempt 2\) used key/);
    expect(explored.message).toContain('\nschedules: 56 of 57 schedules broke a rule\n');
    const root = parseXml(toJUnit('en', [grade], 42));
    const [suite] = child(root, 'testsuite');
    expect(child(suite!, 'testcase').map((c) => [c.attributes.name, c.attributes.classname])).toEqual([
      ['lost_reply', 'test.fixtures.learners.NewKeyPerAttempt'],
      ['lost_reply with one added fault at every point', 'test.fixtures.learners.NewKeyPerAttempt'],
    ]);
    expect(child(child(suite!, 'properties')[0]!, 'property').map((p) => [p.attributes.name, p.attributes.value])).toContainEqual(['explored', '0/1']);
  });
});

describe('the terminal', () => {
  const style = PLAIN;

  it('never runs a long scenario id into the next column', async () => {
    const [base] = (await gradeAll(learner('NewKeyPerAttempt'))).scenarios;
    const long = { ...base!, id: 'a_held_out_scenario_with_a_very_long_id' };
    expect(renderScenario('en', long, [], style)).toBe(`  ✔  1 a_held_out_scenario_with_a_very_long_id\n${' '.repeat(34)}succeeded · calls 4 · ledger 1 · stock camera 2\n`);
  });

  it('sizes the class table to its longest name and its longest score', async () => {
    const a = await gradeAll(learner('Correct'));
    const b = await gradeAll(learner('NewKeyPerAttempt'));
    const table = renderClassSummary('en', [{ ...a, name: 'a' }, { ...b, name: 'a-submission-with-a-long-name' }], 42, style).split('\n');
    expect(table.slice(2, 5)).toEqual([
      '    submission                     as written  added faults  score  first problem',
      '  ✔ a                                   17/17             -  17/17',
      '  ✘ a-submission-with-a-long-name       13/17             -  13/17  inv3 · a new key on a retry (lost_reply)',
    ]);
  });
});

describe('the strict parser these tests rely on', () => {
  it.each([
    ['<a><b></a></b>', '</b> was expected'],
    ['<a x=1/>', 'must be quoted'],
    ['<a x="1" x="2"/>', 'appears twice'],
    ['<a>1 < 2</a>', 'an element name was expected'],
    ['<a>fish & chips</a>', 'starts no reference'],
    ['<a>&nbsp;</a>', 'unknown entity'],
    ['<a>\u0001</a>', 'does not allow'],
    ['<a/><b/>', 'after the root'],
  ])('refuses %j', (xml, problem) => {
    expect(() => parseXml(xml)).toThrow(problem);
  });
});
