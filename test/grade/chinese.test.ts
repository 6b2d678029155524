/**
 * `faultlab grade --lang zh`: the grader diagnoses and hints in Chinese where a learner meets it — the mistake,
 * what exactly happened, where the run left the reference's path, the lesson to read (the Chinese one), the
 * replay command (which keeps the trace in Chinese), the score and the hint ladder; a class's table; the
 * teacher's files. Only human text changes: the figures, ids, statuses, keys and exit codes are the same
 * as in English, and the same seed in the same language gives the same bytes. The grading thread and the
 * learner's process speak the grade's language too (the reasons they give are theirs, not the main thread's).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectRun, RunAssertionError } from '../../src/index.js';
import { judge } from '../../src/check/verdict.js';
import { displayWidth } from '../../src/render/format.js';
import { HINT_LEVELS, hintsFor, PROBLEM_IDS } from '../../src/grade/hints.js';
import { LESSON_FILES, lessonFor, ZH_EXERCISE_SECTIONS } from '../../src/grade/lessons.js';
import { loadScenario, loadScenarios } from '../../src/scenario/load.js';
import { simulate } from '../../src/sim/simulate.js';
import { runScenario } from '../../src/classroom/runScenario.js';
import { unwrapped } from '../lessons/lessonCommand.js';
import { parseLesson } from '../lessons/lessonDoc.js';
import { faultlab, learner, mistake, ROOT, SOLUTION, STUB, submissionsFolder, tmp } from './helpers.js';
import type { ExercismResults } from '../../src/grade/reporters/exercism.js';
import { parseXml } from './xmlParser.js';

const rel = (path: string) => relative(ROOT, path);
const CJK = /[\u4e00-\u9fff]/;

describe('a classic mistake graded in Chinese (new key per attempt, lost_reply)', () => {
  const out = tmp('grade-zh');
  const json = join(out, 'results.json');
  const junit = join(out, 'junit.xml');
  const graded = faultlab(['grade', rel(mistake('new-key-per-attempt')), '--scenarios', 'lost_reply', '--json', json, '--junit', junit, '--replays', join(out, 'replays'), '--lang', 'zh']);

  it('names the mistake and the invariant it broke, and says in Chinese what exactly happened', async () => {
    const { exit, stdout } = await graded;
    expect(exit).toBe(1);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('faultlab grade · test/fixtures/learners/mistakes/new-key-per-attempt/LearnerRunner.ts · 1 个场景 · 种子 42');
    expect(lines[1]).toBe('  ✘  5 lost_reply                 inv3 · 重试时换了新键');
    const said = unwrapped(stdout);
    expect(said).toContain(
      '第 5 次调用（reserve 第 2 次尝试）用的键是 lost_reply:reserve:call-5，而它的第一次尝试（第 4 次调用）用的是 lost_reply:reserve:call-4：重试必须沿用准备动作时生成的那个键——在账本看来，新键就是新意图',
    );
    expect(said).toContain('数字 status 预期 succeeded，实际 tool_error · pending 预期 null，实际 reserve');
    expect(said).toContain('偏离第 4 步（#12）：两边都保存了 attempt_started，但你的 reserve 换了新键 lost_reply:reserve:call-4，参考运行沿用的是 lost_reply:reserve:2872d1b4…');
  });

  it('links the Chinese lesson, and replays in Chinese', async () => {
    const { stdout } = await graded;
    expect(stdout).toContain('       课程      lessons/zh/02-idempotency-keys.md#每次重试都原样沿用\n');
    expect(stdout).toContain('       重放      npx faultlab run scenarios/lost_reply.yaml --runner test/fixtures/learners/mistakes/new-key-per-attempt/LearnerRunner.ts --lang zh\n');
  });

  it('grades the explored part in Chinese, with the same figures as in English', async () => {
    const { stdout } = await graded;
    expect(stdout).toContain('\n  每个位置多加一个故障（深度 1）：每个不变量都必须依然成立\n');
    expect(unwrapped(stdout)).toContain('lost_reply 加上 lost_reply（reserve 第 1 次尝试）：第 5 次调用（reserve 第 2 次尝试）用的键是 lost_reply:reserve:call-5');
    expect(stdout).toContain('       探索      57 个调度中有 56 个打破了规则\n');
    expect(stdout).toContain('  故障覆盖：57 个多加一个故障的调度，其中 56 个打破了规则\n');
    expect(stdout).toContain('  得分 0/2——原样 0/1 · 加故障后 0/1 · 还没有一个通过\n');
  });

  it('opens the hint ladder in Chinese, written for this mistake, and says how to climb it in Chinese', async () => {
    const { stdout } = await graded;
    expect(stdout).toContain('  提示 1/3 · inv3 · 重试时换了新键（lost_reply 及另外 1 处）\n');
    expect(stdout).toContain('    1. 这次重试带的键和第一次尝试不一样。在账本看来，一个它从没见过的键意味着什么？\n');
    expect(stdout).toContain(`  更多提示：npx faultlab grade ${rel(mistake('new-key-per-attempt'))} --scenarios lost_reply --lang zh --hint 2\n`);
  });

  it('writes Exercism results with the same keys, statuses, names and task ids, and the explanation in Chinese', async () => {
    await graded;
    const doc = JSON.parse(readFileSync(json, 'utf8')) as ExercismResults;
    expect(Object.keys(doc)).toEqual(['version', 'status', 'message', 'tests']);
    expect([doc.version, doc.status, doc.message]).toEqual([3, 'fail', null]);
    expect(doc.tests.map((t) => Object.keys(t))).toEqual([
      ['name', 'test_code', 'status', 'message', 'task_id'],
      ['name', 'test_code', 'status', 'message', 'task_id'],
    ]);
    expect(doc.tests.map((t) => [t.name, t.status, t.task_id])).toEqual([
      ['lost_reply: The reply is lost after the commit', 'fail', 5],
      ['lost_reply with one added fault at every point: The reply is lost after the commit', 'fail', 5],
    ]);
    const message = doc.tests[0]!.message!.split('\n');
    expect(message[0]).toMatch(/^inv3 · 重试时换了新键——第 5 次调用（reserve 第 2 次尝试）用的键是 lost_reply:reserve:call-5，/);
    expect(message.slice(1)).toEqual([
      '数字：status 预期 succeeded，实际 tool_error · pending 预期 null，实际 reserve',
      '与参考运行的第一处偏离：第 4 步（#12）：两边都保存了 attempt_started，但你的 reserve 换了新键 lost_reply:reserve:call-4，参考运行沿用的是 lost_reply:reserve:2872d1b4…',
      `重放：npx faultlab run scenarios/lost_reply.yaml --runner ${rel(mistake('new-key-per-attempt'))} --lang zh`,
      '课程：lessons/zh/02-idempotency-keys.md#每次重试都原样沿用',
    ]);
    expect(doc.tests[0]!.test_code).toBe(`npx faultlab run scenarios/lost_reply.yaml --runner ${rel(mistake('new-key-per-attempt'))} --lang zh\n# lost_reply（reserve 第 1 次尝试） → succeeded · 调用 5 · 账本 1 · 库存 camera 2`);
  });

  it('writes JUnit with the same test names and failure types, the failure message in Chinese', async () => {
    await graded;
    const suite = parseXml(readFileSync(junit, 'utf8')).children[0]!;
    const cases = suite.children.filter((c) => c.name === 'testcase');
    expect(cases.map((c) => c.attributes.name)).toEqual(['lost_reply', 'lost_reply with one added fault at every point']);
    const failure = cases[0]!.children.find((c) => c.name === 'failure')!;
    expect(failure.attributes.type).toBe('new_key_per_attempt');
    expect(failure.attributes.message).toMatch(/^第 5 次调用（reserve 第 2 次尝试）用的键是 lost_reply:reserve:call-5/);
  });
});

describe("the grading thread and the learner's process speak the grade's language", () => {
  it("a step that rolls dice gets the determinism guard's error in Chinese, from the learner's own process", async () => {
    const { exit, stdout } = await faultlab(['grade', rel(learner('RandomKey')), '--scenarios', 'lost_reply', '--no-explore', '--lang', 'zh']);
    expect(exit).toBe(1);
    expect(stdout).toContain('  ✘  5 lost_reply                 第 4 步抛出 DeterminismError\n');
    expect(unwrapped(stdout)).toContain('Runner 在第 4 步（test/fixtures/learners/RandomKey.ts:12）抛出了 DeterminismError：step() 调用了 Math.random()：Runner 必须是确定性的');
    expect(stdout).toContain('       课程      lessons/zh/08-the-exercise.md#异常卡死与确定性守卫\n');
  });

  it('the stub as shipped: why nothing was explored is said by the grading thread, in Chinese', async () => {
    const { stdout } = await faultlab(['grade', rel(STUB), '--scenarios', 'happy_path', '--lang', 'zh']);
    expect(stdout).toContain('  ✘  1 happy_path                 未探索\n       未探索：原样的场景没有跑到终点\n');
    expect(stdout).not.toContain('故障覆盖'); // nothing was explored: no coverage of 0 schedules
    expect(stdout).toContain('  得分 0/2——原样 0/1 · 加故障后 0/1 · 还没有一个通过\n');
  });

  it('the same seed in the same language gives the same bytes', async () => {
    const argv = ['grade', rel(learner('NewKeyPerAttempt')), '--scenarios', 'lost_reply', '--no-explore', '--lang', 'zh', '--seed', '7'];
    const [first, second] = [await faultlab(argv), await faultlab(argv)];
    expect(first.stdout).toContain('lost_reply:reserve:call-4');
    expect(second.stdout).toBe(first.stdout);
  });
});

describe('a class graded in Chinese', () => {
  it('prints its table in Chinese, columns aligned by display width, with the same scores as in English', async () => {
    const dir = submissionsFolder({ alice: SOLUTION, bob: mistake('new-key-per-attempt'), 'carol-with-a-long-name': mistake('crash-caught') });
    const { exit, stdout } = await faultlab(['grade', dir, '--scenarios', 'crash_after_commit', '--no-explore', '--summary', '--lang', 'zh']);
    expect(exit).toBe(1);
    const lines = stdout.split('\n');
    const head = lines.findIndex((l) => l.includes('提交') && l.includes('第一个问题'));
    expect(lines[head - 1]).toBe('  3 份提交 · 1 个场景 · 种子 42');
    const table = lines.slice(head, head + 4);
    expect(table[0]!.trim().split(/\s+/)).toEqual(['提交', '原样', '加故障后', '得分', '第一个问题']);
    expect(table.slice(1).map((l) => l.trim().split(/\s+/).slice(0, 5))).toEqual([
      ['✔', 'alice', '1/1', '-', '1/1'],
      ['✘', 'bob', '0/1', '-', '0/1'],
      ['✘', 'carol-with-a-long-name', '0/1', '-', '0/1'],
    ]);
    expect(table[2]).toMatch(/ inv3 · 重试时换了新键（crash_after_commit）$/);
    expect(table[3]).toMatch(/ step 接住了崩溃（crash_after_commit）$/);
    // Columns line up in display columns (a Chinese heading is twice as wide as it is long): each right-aligned
    // score ends where its heading ends, and each first problem starts where its heading starts.
    const column = (line: string, end: number) => displayWidth(line.slice(0, end));
    const [heading, ...rows] = table as [string, ...string[]];
    const scoreEnd = column(heading, heading.indexOf('得分') + '得分'.length);
    for (const row of rows) {
      const score = row.trim().split(/\s+/)[4]!;
      expect(column(row, row.lastIndexOf(score) + score.length), row).toBe(scoreEnd);
    }
    const problemStart = column(heading, heading.indexOf('第一个问题'));
    expect(column(rows[1]!, rows[1]!.indexOf('inv3'))).toBe(problemStart);
    expect(column(rows[2]!, rows[2]!.indexOf('step'))).toBe(problemStart);
    expect(lines.at(-2)).toBe('  3 份中有 1 份全部通过');
  });
});

describe('the hint ladder in Chinese', () => {
  it.each(PROBLEM_IDS)('%s: three distinct hints, written in Chinese', async (id) => {
    const zh = hintsFor('zh', id, HINT_LEVELS);
    expect(zh).toHaveLength(3);
    expect(new Set(zh).size).toBe(3);
    for (const hint of zh) expect(hint.split('\n')[0], hint).toMatch(CJK);
  });

  it('keeps the code of every third hint as English has it: only the words around it, and its comments, are Chinese', async () => {
    const code = (hint: string) => hint.split('\n').filter((line) => line.startsWith('  ')).map((line) => line.replace(/\s*\/\/.*$/, ''));
    for (const id of PROBLEM_IDS) {
      const [en, zh] = [hintsFor('en', id, HINT_LEVELS)[2]!, hintsFor('zh', id, HINT_LEVELS)[2]!];
      expect(code(zh), id).toEqual(code(en));
    }
  });
});

describe('lesson links in Chinese', () => {
  const slugs = new Map<string, string[]>();
  const slugsOf = (file: string) => {
    if (!slugs.has(file)) slugs.set(file, parseLesson(readFileSync(join(ROOT, 'lessons', file), 'utf8')).headings.map((h) => h.slug));
    return slugs.get(file)!;
  };
  const targets = [...PROBLEM_IDS.map((id) => lessonFor(id, 'happy_path', 'zh')), ...loadScenarios().map((s) => lessonFor(null, s.id, 'zh'))];

  it.each([...new Set(targets)])('%s is a Chinese lesson, down to the heading', async (target) => {
    const [file, anchor] = target.split('#') as [string, string | undefined];
    expect(file.startsWith('zh/')).toBe(true);
    expect(slugsOf(file).length).toBeGreaterThan(0);
    if (anchor !== undefined) expect(slugsOf(file)).toContain(anchor);
  });

  it('names every section of the Chinese lesson 8 that the grader links to', async () => {
    expect(slugsOf(`zh/${LESSON_FILES.exercise}`)).toEqual(expect.arrayContaining(Object.values(ZH_EXERCISE_SECTIONS)));
  });

  it('points a mistake to the same lesson in both languages', async () => {
    for (const id of PROBLEM_IDS) expect(lessonFor(id, 'happy_path', 'zh').split('#')[0], id).toBe(`zh/${lessonFor(id, 'happy_path', 'en').split('#')[0]}`);
  });
});

describe('the classroom assertions in Chinese', () => {
  it("read like the grader's Chinese report: the headline, the mistake, the replay and the Chinese lesson", async () => {
    const message = await (async () => {
      const run = await runScenario('lost_reply', { runner: 'test/fixtures/learners/NewKeyPerAttempt.ts' });
      try {
        expectRun(run, { lang: 'zh' }).toEndWith('succeeded');
      } catch (error) {
        expect(error).toBeInstanceOf(RunAssertionError);
        return (error as Error).message;
      }
      throw new Error('the assertion held, but it should have failed');
    })();
    const lines = message.split('\n');
    expect(lines[0]).toBe('lost_reply（LearnerRunner）：预期运行以 succeeded 结束，实际以 tool_error 结束');
    expect(lines[1]).toMatch(/^第一个问题：inv3 · 重试时换了新键——第 5 次调用（reserve 第 2 次尝试）用的键是 lost_reply:reserve:call-5，/);
    expect(lines).toContain('数字：status 预期 succeeded，实际 tool_error · pending 预期 null，实际 reserve');
    expect(lines.at(-2)).toBe('重放：npx faultlab run scenarios/lost_reply.yaml --runner test/fixtures/learners/NewKeyPerAttempt.ts --lang zh');
    expect(lines.at(-1)).toBe('课程：lessons/zh/02-idempotency-keys.md#每次重试都原样沿用');
  });
});

describe('where the command line sends a Chinese reader next', () => {
  it('to the Chinese lessons, from the end of a run and from the usage', async () => {
    const run = await faultlab(['run', '--quiet', '--lang', 'zh']);
    expect(unwrapped(run.stdout)).toContain('下一步：阅读 lessons/zh/01-intents-attempts-effects.md ·');
    expect(unwrapped(run.stdout)).toContain('npm run grade -- --lang zh（练习）');
    const usage = await faultlab(['--lang', 'zh']);
    expect(usage.stdout + usage.stderr).toContain('课程：lessons/zh/ · 练习：src/runner/LearnerRunner.ts');
  });
});
