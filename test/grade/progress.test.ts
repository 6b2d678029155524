/**
 * A teacher grading a class sees progress from the first second: a first line at once with the number of
 * submissions, then as each finishes a count and an estimate of the time left — on a terminal one live line
 * rewritten in place, in a log one line per finished submission. The wall clock is the CLI's (Io.now), fixed
 * here so the estimates are exact. JUnit's root `time` is the run's wall time, not the sum of its suites.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import { timeLeftMs } from '../../src/grade/progress.js';
import { renderProgress, renderProgressStart } from '../../src/grade/reporters/terminal.js';
import { toJUnit } from '../../src/grade/reporters/junit.js';
import { PLAIN } from '../../src/render/style.js';
import { gradeAll, learner, mistake, ROOT, SOLUTION, STUB, submissionsFolder, tmp } from './helpers.js';
import { parseXml } from './xmlParser.js';

/** `faultlab ARGS` with a clock that moves a second each time it is read, on a terminal or in a log. */
async function graded(argv: string[], options: { tty: boolean; columns?: number }) {
  let stdout = '';
  let clock = 0;
  const io: Io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: () => true },
    env: { NO_COLOR: '1' },
    isTTY: options.tty,
    ...(options.columns !== undefined ? { columns: options.columns } : {}),
    cwd: ROOT,
    now: () => (clock += 1000) - 1000,
  };
  const exit = await main(argv, io);
  return { exit, stdout };
}

describe('the estimate', () => {
  it('shares the work left among the lanes still busy, less what the running ones have done', () => {
    expect(timeLeftMs({ total: 10, done: 0, lanes: 2, finishedMs: [], runningMs: [500, 500] })).toBeNull();
    expect(timeLeftMs({ total: 3, done: 1, lanes: 1, finishedMs: [1000], runningMs: [] })).toBe(2000);
    // 8 left at 1 s each, 2 of them half done: 7 s of work for 2 lanes
    expect(timeLeftMs({ total: 10, done: 2, lanes: 2, finishedMs: [1000, 1000], runningMs: [500, 500] })).toBe(3500);
    // one left, on one lane however many there are; a running one past the mean counts as nearly done
    expect(timeLeftMs({ total: 3, done: 2, lanes: 4, finishedMs: [1000, 3000], runningMs: [5000] })).toBe(0);
    expect(timeLeftMs({ total: 3, done: 3, lanes: 2, finishedMs: [1, 2, 3], runningMs: [] })).toBe(0);
  });

  it('is worded in English and in Chinese', () => {
    expect(renderProgressStart('en', 30, 4, PLAIN)).toBe('  grading 30 submissions, 4 at a time\n');
    expect(renderProgressStart('zh', 30, 4, PLAIN)).toBe('  正在评分 30 份提交，同时评 4 份\n');
    expect(renderProgressStart('en', 2, 4, PLAIN)).toBe('  grading 2 submissions, 2 at a time\n');
    expect(renderProgress('en', 0, 30, null)).toBe('0/30 graded');
    expect(renderProgress('en', 3, 30, 12_400)).toBe('3/30 graded · about 12 s left');
    expect(renderProgress('en', 3, 30, 200)).toBe('3/30 graded · about 1 s left');
    expect(renderProgress('en', 3, 30, 300_000)).toBe('3/30 graded · about 5 min left');
    expect(renderProgress('en', 30, 30, 0)).toBe('30/30 graded');
    expect(renderProgress('zh', 3, 30, 12_400)).toBe('已评 3/30 份 · 预计还需约 12 秒');
    expect(renderProgress('zh', 3, 30, 300_000)).toBe('已评 3/30 份 · 预计还需约 5 分钟');
    expect(renderProgress('zh', 30, 30, 0)).toBe('已评 30/30 份');
  });
});

describe('a class graded in a log (stdout not a terminal)', () => {
  const class3 = () => submissionsFolder({ alice: SOLUTION, bob: mistake('lost-reply-as-failure'), carol: SOLUTION });
  const args = (dir: string) => ['grade', dir, '--scenarios', 'lost_reply', '--no-explore', '--jobs', '1'];

  it('says the number of submissions first, then one line per finished submission with the count and the time left', async () => {
    const { exit, stdout } = await graded(args(class3()), { tty: false });
    expect(exit).toBe(1);
    const lines = stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '  grading 3 submissions, 1 at a time',
      '  [1/3 graded · about 2 s left] ✔ alice  1/1 (1/1 as written · - with added faults)',
      expect.stringMatching(/^ {2}\[2\/3 graded · about 1 s left\] ✘ bob {2}0\/1 \(0\/1 as written · - with added faults\) {2}\S/),
      '  [3/3 graded] ✔ carol  1/1 (1/1 as written · - with added faults)',
    ]);
    expect(stdout).not.toContain('\r');
  });

  it('in Chinese', async () => {
    const { stdout } = await graded([...args(class3()), '--lang', 'zh'], { tty: false });
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('  正在评分 3 份提交，同时评 1 份');
    expect(lines[1]).toMatch(/^ {2}\[已评 1\/3 份 · 预计还需约 2 秒\] ✔ alice {2}1\/1/);
    expect(lines[3]).toMatch(/^ {2}\[已评 3\/3 份\] ✔ carol {2}1\/1/);
  });

  it('under --summary: the count alone, one line each, then the table', async () => {
    const { stdout } = await graded([...args(class3()), '--summary'], { tty: false });
    expect(stdout.split('\n').slice(0, 6)).toEqual(['  grading 3 submissions, 1 at a time', '  1/3 graded · about 2 s left', '  2/3 graded · about 1 s left', '  3/3 graded', '', '  3 submissions · 1 scenario · seed 42']);
  });
});

describe('a class graded on a terminal', () => {
  it('keeps one live line, rewritten in place under the submissions’ lines and cleared before the table', async () => {
    const dir = submissionsFolder({ alice: SOLUTION, bob: SOLUTION });
    const { stdout } = await graded(['grade', dir, '--scenarios', 'happy_path', '--no-explore', '--jobs', '1'], { tty: true, columns: 100 });
    const CLEAR = '\r\x1b[2K';
    expect(stdout.startsWith('  grading 2 submissions, 1 at a time\n' + CLEAR + '  0/2 graded' + CLEAR + '  ✔ alice  1/1')).toBe(true);
    expect(stdout).toContain(`${CLEAR}  1/2 graded · about 1 s left${CLEAR}  ✔ bob  1/1`);
    expect(stdout).toContain(`${CLEAR}  2/2 graded${CLEAR}\n  2 submissions · 1 scenario · seed 42\n`);
    // the live line never ends in a newline: the only line breaks before the table are the first line's and the submissions' own
    expect(stdout.split('  2 submissions ·')[0]!.split('\n')).toHaveLength(5);
  });

  it('cuts the live line to the terminal’s width, so that it never wraps', async () => {
    const dir = submissionsFolder({ alice: SOLUTION, bob: SOLUTION });
    const { stdout } = await graded(['grade', dir, '--scenarios', 'happy_path', '--no-explore', '--jobs', '1', '--summary', '--lang', 'zh'], { tty: true, columns: 20 });
    const live = stdout.split('\r\x1b[2K').slice(1).map((s) => s.split('\n')[0]!);
    expect(live).toContain('  已评 1/2 份 · 预'); // 19 columns of a 20-column terminal
  });
});

describe("JUnit's times", () => {
  it("gives the root the run's wall time, not the sum of the suites graded side by side", async () => {
    const submissions = [await gradeAll(learner('Correct')), await gradeAll(STUB)];
    const sum = submissions.flatMap((s) => s.scenarios).reduce((ms, g) => ms + g.durationMs, 0);
    const root = parseXml(toJUnit('en', submissions, 42, { wallMs: 1234 }));
    expect(root.attributes.time).toBe('1.234');
    const suites = root.children.filter((c) => c.name === 'testsuite');
    expect(suites.reduce((s, suite) => s + Number(suite.attributes.time), 0)).toBeCloseTo(sum / 1000, 2);
    // no wall time given: no root time rather than a sum that claims what never happened
    expect(parseXml(toJUnit('en', submissions, 42)).attributes.time).toBeUndefined();
  });

  it('writes the wall time the CLI measured: never more than the run took', async () => {
    const out = tmp('junit-wall');
    const junit = join(out, 'junit.xml');
    const dir = submissionsFolder({ alice: SOLUTION, bob: mistake('new-key-per-attempt'), carol: SOLUTION });
    // the fixed clock: read once at the start, once as each of 3 submissions starts and ends, once at the end
    await graded(['grade', dir, '--scenarios', 'lost_reply', '--no-explore', '--jobs', '2', '--junit', junit], { tty: false });
    expect(parseXml(readFileSync(junit, 'utf8')).attributes.time).toBe('7.000');
    // and with the real clock, measured around the run
    const started = performance.now();
    const { main: run } = await import('../../src/cli/main.js');
    await run(['grade', dir, '--scenarios', 'lost_reply', '--jobs', '2', '--junit', junit], { stdout: { write: () => true }, stderr: { write: () => true }, env: { NO_COLOR: '1' }, isTTY: false, cwd: out });
    const wall = performance.now() - started;
    const root = parseXml(readFileSync(junit, 'utf8'));
    expect(Number(root.attributes.time) * 1000).toBeLessThanOrEqual(wall + 1);
  }, 120_000);
});
