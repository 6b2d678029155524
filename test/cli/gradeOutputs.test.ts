/**
 * What `faultlab grade` writes, checked before anything is graded: every bad option is exit 2 with a message,
 * no output lands on what is graded (a submission, a scenario) or another output, and every submission of a
 * class has a name of its own — its results.json, its test suite and its replay folder.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support.js';
import { tempFolder } from '../tempFolder.js';

const SOLUTION = join(import.meta.dirname, '..', 'fixtures', 'learners', 'solution', 'LearnerRunner.ts');
const SCENARIOS = join(import.meta.dirname, '..', '..', 'scenarios');
const work = tempFolder('grade-outputs');
const ONE = ['--scenarios', 'read_only', '--no-explore'];

/** A class folder: alice/LearnerRunner.ts, alice.ts and alice-2.ts — three names that used to collide. */
function aliceClass(): string {
  const dir = join(tempFolder('alices'), 'class');
  mkdirSync(join(dir, 'alice'), { recursive: true });
  for (const file of ['alice/LearnerRunner.ts', 'alice.ts', 'alice-2.ts']) copyFileSync(SOLUTION, join(dir, file));
  return dir;
}

describe('every submission of a class has a name of its own', () => {
  it('alice/LearnerRunner.ts, alice.ts and alice-2.ts: three results.json, three suites, none overwritten', async () => {
    const results = join(work, 'results');
    const junit = join(work, 'alices.xml');
    const graded = await cli(['grade', aliceClass(), ...ONE, '--results-dir', results, '--junit', junit]);
    expect(graded.code).toBe(0);
    expect(readdirSync(results).sort()).toEqual(['alice', 'alice-2', 'alice-3']);
    const suites = [...readFileSync(junit, 'utf8').matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1]);
    expect(suites.sort()).toEqual(['alice', 'alice-2', 'alice-3']);
  });
});

describe('outputs checked before anything is graded: exit 2, a message, nothing graded', () => {
  const submission = join(work, 'mine.ts');
  copyFileSync(SOLUTION, submission);
  const heldOut = join(work, 'held');
  mkdirSync(heldOut);
  copyFileSync(join(SCENARIOS, 'read_only.yaml'), join(heldOut, 'read_only.yaml'));
  const aFile = join(work, 'a-file');
  writeFileSync(aFile, '');
  const clash = join(work, 'clash');
  mkdirSync(clash);
  writeFileSync(join(clash, 'alice'), 'not a folder');

  it.each([
    ['one file for --json and --junit', [...ONE, '--json', join(work, 'x'), '--junit', join(work, 'x')], `faultlab grade: --json and --junit both name ${join(work, 'x')}: each output needs a file of its own`],
    ['--json onto the submission', [...ONE, '--json', submission], `faultlab grade: --json ${submission}: that is a submission or a scenario being graded — an output never goes onto what is graded`],
    ['--junit onto a scenario graded', ['--scenarios', join(heldOut, 'read_only.yaml'), '--no-explore', '--junit', join(heldOut, 'read_only.yaml')], `faultlab grade: --junit ${join(heldOut, 'read_only.yaml')}: that is a submission or a scenario being graded — an output never goes onto what is graded`],
    ['--replays into a folder of scenarios', ['--scenarios', join(heldOut, 'read_only.yaml'), '--replays', heldOut], `faultlab grade: --replays ${heldOut}: that is a folder of scenarios — what is written there would be read as scenarios`],
    ["--results-dir inside faultlab's own files", [...ONE, '--results-dir', join(SCENARIOS, 'out')], `faultlab grade: --results-dir ${join(SCENARIOS, 'out')}: that is inside faultlab's own files (src, dist, scenarios, node_modules) — they stay as they are`],
    ['--held-out with the id of a scenario graded', [...ONE, '--held-out', heldOut], `faultlab grade: --held-out: read_only (${join(heldOut, 'read_only.yaml')}) has the id of a scenario already graded (scenarios/read_only.yaml): each test needs an id of its own`],
    ['--html with no folder', [...ONE, '--html', ''], 'faultlab grade: --html needs a folder'],
    ['--html at a file', [...ONE, '--html', aFile], `faultlab grade: --html ${aFile} is a file, not a folder`],
    ['--load-timeout that is no time', [...ONE, '--load-timeout', '0'], 'faultlab grade: --load-timeout must be an integer from 1 to 86400000, got "0"'],
  ])('%s', async (_what, options, message) => {
    const graded = await cli(['grade', submission, ...options]);
    expect([graded.code, graded.stderr.split('\n')[0], graded.stdout]).toEqual([2, message, '']);
    expect(readFileSync(submission, 'utf8')).toBe(readFileSync(SOLUTION, 'utf8'));
  });

  it("a class whose results folder holds a file where a submission's folder goes", async () => {
    const graded = await cli(['grade', aliceClass(), ...ONE, '--results-dir', clash]);
    expect([graded.code, graded.stderr.split('\n')[0], graded.stdout]).toEqual([2, `faultlab grade: --results-dir ${join(clash, 'alice')}: cannot write there (EEXIST)`, '']);
  });

  it.each(['run', 'explore'])('%s --html with no folder, or at a file, before any run', async (command) => {
    for (const [given, message] of [['', `faultlab ${command}: --html needs a folder`], [aFile, `faultlab ${command}: --html ${aFile} is a file, not a folder`]] as const) {
      const ran = await cli([command, 'read_only', '--html', given]);
      expect([ran.code, ran.stderr.split('\n')[0], ran.stdout]).toEqual([2, message, '']);
    }
  });
});
