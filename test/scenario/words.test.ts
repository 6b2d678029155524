/**
 * A scenario's own words in Chinese: the `zh: { title, explain }` block of every shipped scenario and lab,
 * and a lab note's `zh:`. A learner reading the Chinese trace meets the scenario in Chinese from its first
 * line; the English trace, `--json` and `list --json` are what they were; a scenario without `zh:` shows its
 * English words in both languages; a malformed block is bad input at its line and column.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import { renderGradeHtml, renderRunHtml } from '../../src/render/html/index.js';
import { displayWidth } from '../../src/render/format.js';
import { loadAll } from '../../src/scenario/load.js';
import { titleOf, wordsOf } from '../../src/scenario/words.js';
import { cli, run, scenario } from '../support.js';

const dir = mkdtempSync(join(tmpdir(), 'faultlab-words-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const shipped = (path: string) => readFileSync(join(SCENARIOS_DIR, path), 'utf8');
/** The file as it would be without its Chinese block (the block and its comment close every shipped file). */
const withoutZh = (text: string) => text.slice(0, text.indexOf('# 中文（--lang zh）'));
/** A Chinese sentence is found whatever the width cut it into: wrapping only adds spaces and line breaks. */
const squeezed = (text: string) => text.replace(/\s+/g, '');

const LOST_REPLY_ZH = {
  title: '提交之后，回复丢了',
  explain:
    '第一次 reserve 到达工具，工具在同一个事务里扣减库存、写入回执并提交；随后回复丢失。Runner 收到的是 TransientError —— 不确定失败：效果可能已经发生，而这一次确实发生了。它用同一个键重试同一个待定动作；工具在账本里找到这个键，参数指纹也相同，于是返回原回执，库存一点不动。五次调用，账本一行，剩下两台相机：这次重试之所以安全，是因为键绑定的是意图。',
};

describe('every shipped scenario says its title and explanation in Chinese', () => {
  const loaded = loadAll(['', 'pillars', 'lessons', 'labs', 'workers'].map((sub) => join(SCENARIOS_DIR, sub)));
  const worded = loaded.map((l) => (l.type === 'runner' ? l.scenario : l));

  it('all 46: the 17, the pillars, the lessons’ scenarios, the labs and the many-worker scenarios', async () => {
    expect(worded).toHaveLength(46);
    expect(worded.filter((w) => w.zh === undefined).map((w) => w.id)).toEqual([]);
  });

  it('loads lost_reply’s Chinese words as written, and keeps its English ones', async () => {
    const s = scenario('lost_reply');
    expect(s.zh).toEqual(LOST_REPLY_ZH);
    expect(s.title).toBe('The reply is lost after the commit');
    expect(wordsOf(s, 'zh')).toEqual(LOST_REPLY_ZH);
    expect(wordsOf(s, 'en').title).toBe('The reply is lost after the commit');
  });

  // The Chinese is written afresh, not glossed; but it tells the same run: every figure, status, code and
  // name of the English (3, 0.5455, retry_exhausted, STALE_VERSION, TransientError…) is in it, and no other.
  const named = (text: string) => [...new Set(text.match(/\d+(?:\.\d+)?|[A-Za-z]+_[A-Za-z0-9_]+|[A-Z][A-Z_]{3,}|[A-Z][a-z]+[A-Z][A-Za-z]+/g) ?? [])].sort();
  it.each(worded.map((w) => [w.id, w] as const))('%s: the Chinese names exactly the figures and names of the English', (_id, w) => {
    expect(named(w.zh!.explain)).toEqual(named(w.explain));
    expect(named(w.zh!.title)).toEqual(named(w.title));
  });

  it('keeps every line of the English where it was: the Chinese block closes each file', async () => {
    const files = ['', 'pillars', 'lessons', 'labs', 'workers'].flatMap((sub) =>
      readdirSync(join(SCENARIOS_DIR, sub)).filter((f) => f.endsWith('.yaml')).map((f) => join(sub, f)),
    );
    const block = /\n# 中文（--lang zh）：[^\n]*\nzh:\n {2}title: '[^'\n]+'\n {2}explain: "(?:[^"\n]*\\\n {4})*[^"\n]*"\n$/;
    expect(files).toHaveLength(46);
    for (const f of files) expect(shipped(f), f).toMatch(block);
  });
});

describe('the Chinese trace opens with the scenario’s Chinese words', () => {
  it('lost_reply: the title in the header, the explanation under it — and the same bytes for the same seed', async () => {
    const zh = await cli(['run', 'lost_reply', '--lang', 'zh', '--no-color']);
    expect(zh.code).toBe(0);
    expect(zh.stdout.split('\n')[0]).toBe(`━━ 1/1 lost_reply ━ 提交之后，回复丢了 ${'━'.repeat(41)}`);
    expect(displayWidth(zh.stdout.split('\n')[0]!)).toBe(80);
    expect(zh.stdout.split('\n')[1]).toBe('  第一次 reserve 到达工具，工具在同一个事务里扣减库存、写入回执并提交；随后回复');
    expect(squeezed(zh.stdout)).toContain(squeezed(LOST_REPLY_ZH.explain));
    expect(zh.stdout).not.toContain('The reply is lost');
    expect(zh.stdout).not.toContain('the retry was safe');
    expect((await cli(['run', 'lost_reply', '--lang', 'zh', '--no-color'])).stdout).toBe(zh.stdout);
  });

  it('keeps the English header in English', async () => {
    const en = await cli(['run', 'lost_reply', '--no-color']);
    expect(en.stdout.split('\n')[0]).toBe(`━━ 1/1 lost_reply ━ The reply is lost after the commit ${'━'.repeat(25)}`);
    expect(en.stdout.split('\n')[1]).toBe('  The first reserve reaches the tool, which decrements the stock and writes the');
    expect(en.stdout).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('says the Chinese explanation is the reference runner’s story when another runner plays it', async () => {
    const out = await cli(['run', 'lost_reply', '--runner', 'mutant:new_key_per_attempt', '--lang', 'zh', '--no-color']);
    expect(squeezed(out.stdout)).toContain(squeezed(`以参考 Runner 运行时：${LOST_REPLY_ZH.explain}`));
  });

  it('heads the HTML page with the Chinese title and explanation, and the English page with the English', async () => {
    const r = await run('crash_after_commit');
    const zh = renderRunHtml('zh', r);
    expect(zh).toContain('<h1><code>crash_after_commit</code> — 提交后崩溃：从日志恢复</h1>');
    expect(zh).toContain('<p class="explain">工具提交了这次预留，回复送到之前 Runner 的进程就中断了。两个数据库连接都被断开。');
    expect(renderRunHtml('en', r)).toContain('<h1><code>crash_after_commit</code> — Crash after the commit: recover from the log</h1>');
    // The grader's page of two runs side by side names the scenario the same way.
    expect(renderGradeHtml('zh', r, r, null)).toContain('<h1><code>crash_after_commit</code> — 提交后崩溃：从日志恢复</h1>');
    expect(renderGradeHtml('en', r, r, null)).toContain('<h1><code>crash_after_commit</code> — Crash after the commit: recover from the log</h1>');
  });
});

describe('the index of run --html in Chinese', () => {
  it('lists each run under its Chinese title, and under its English one without --lang zh', async () => {
    const zhDir = join(dir, 'pages-zh');
    const enDir = join(dir, 'pages-en');
    expect((await cli(['run', 'lost_reply', 'happy_path', '--html', zhDir, '--lang', 'zh', '--quiet'])).code).toBe(0);
    expect((await cli(['run', 'lost_reply', 'happy_path', '--html', enDir, '--quiet'])).code).toBe(0);
    const zh = readFileSync(join(zhDir, 'index.html'), 'utf8');
    expect(zh).toContain('<td>提交之后，回复丢了</td>');
    expect(zh).toContain('<td>顺利路径：一个意图，一次尝试，一次效果</td>');
    expect(readFileSync(join(enDir, 'index.html'), 'utf8')).toContain('<td>The reply is lost after the commit</td>');
  });
});

describe('a lab in Chinese: its header and its notes', () => {
  it('breaker_trips_and_recovers: the Chinese title and explanation, and each note said in Chinese at its time', async () => {
    const zh = await cli(['run', 'scenarios/labs/breaker_trips_and_recovers.yaml', '--lang', 'zh', '--no-color', '--width', '200']);
    expect(zh.code).toBe(0);
    const lines = zh.stdout.split('\n');
    expect(lines[0]).toMatch(/^━━ 1\/1 breaker_trips_and_recovers ━ 断路器：路线被淹、关闭、派车侦察、重新开放 ━+$/);
    expect(lines[1]).toMatch(/^ {2}memory_service（阈值 0\.5，至少 10 个请求，重置 30 s，2 次探测）在四次成功的调用之后开始失败。/);
    expect(zh.stdout).toContain('     0ms  注：memory_service 运行正常\n');
    expect(zh.stdout).toContain('   400ms  注：memory_service 开始出故障\n');
    const en = await cli(['run', 'scenarios/labs/breaker_trips_and_recovers.yaml', '--no-color', '--width', '200']);
    expect(en.stdout).toContain('     0ms  note: memory_service is healthy\n');
    expect(en.stdout).toContain('   400ms  note: memory_service starts failing\n');
    expect(en.stdout.split('\n')[0]).toMatch(/^━━ 1\/1 breaker_trips_and_recovers ━ Circuit breaker: the route floods, closes, is scouted, and reopens ━+$/);
  });

  it('abandoned_probe_rearms: the note on the probe that never reports, in Chinese, with the same figures', async () => {
    const zh = await cli(['run', 'scenarios/labs/abandoned_probe_rearms.yaml', '--lang', 'zh', '--no-color', '--width', '200']);
    expect(zh.stdout).toContain(' 60800ms  注：lost_probe 的调用方崩溃了：它永远不会报告结果\n');
    expect(zh.stdout).toContain('通过 abandoned_probe_rearms：6 项检查全部成立');
  });
});

describe('faultlab list in Chinese', () => {
  /** Where each column of a table row starts, in display columns: after every run of two or more spaces. */
  const starts = (line: string) => [...line.matchAll(/ {2,}(?=\S)/g)].map((m) => displayWidth(line.slice(0, m.index + m[0].length)));

  it('shows the Chinese titles, and lines every column up by display width — the labs’ and the pillars’ too', async () => {
    const { stdout, code } = await cli(['list', 'scenarios', 'scenarios/pillars', 'scenarios/labs', '--lang', 'zh', '--no-color']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + 17 + 6 + 9);
    expect(lines[1]).toMatch(/^ {2}1 {2}happy_path +顺利路径：一个意图，一次尝试，一次效果 +没有故障 +succeeded$/);
    expect(stdout).toMatch(/ backoff_between_retries +带退避的重试：每次重试之前，Runner 按时钟和种子等一等 +transient/);
    expect(stdout).toMatch(/ thundering_herd +重试：100 个客户端同时失败，五种抖动策略应对一场惊群 +lab: herd +-\n/);
    // The title, fault and status columns start at the same column on every line, the head's included.
    const head = starts(lines[0]!).slice(-3);
    for (const line of lines) expect(starts(line).slice(-3), line).toEqual(head);
  });

  it('keeps list --json one document in every language, with the English titles', async () => {
    const zh = await cli(['list', 'scenarios', 'scenarios/labs', '--json', '--lang', 'zh']);
    const en = await cli(['list', 'scenarios', 'scenarios/labs', '--json']);
    expect(zh.stdout).toBe(en.stdout);
    const rows = JSON.parse(zh.stdout) as Array<{ id: string; title: string }>;
    expect(rows.find((r) => r.id === 'lost_reply')!.title).toBe('The reply is lost after the commit');
    expect(rows.find((r) => r.id === 'thundering_herd')!.title).toBe('Retry: 100 clients fail at once — five jitter strategies against one herd');
  });
});

describe('a scenario without zh: keeps its English words in Chinese', () => {
  it('a runner scenario: the English title and explanation open the otherwise Chinese trace, and list shows its English title', async () => {
    const path = file('no_zh.yaml', withoutZh(shipped('lost_reply.yaml')));
    const out = await cli(['run', path, '--lang', 'zh', '--no-color']);
    expect(out.code).toBe(0);
    expect(out.stdout.split('\n')[0]).toMatch(/^━━ 1\/1 lost_reply ━ The reply is lost after the commit ━+$/);
    expect(out.stdout.split('\n')[1]).toBe('  The first reserve reaches the tool, which decrements the stock and writes the');
    expect(out.stdout).toContain('  种子 42 · ReferenceRunner · max_calls 8 · max_retries 2 ·');
    expect((await cli(['list', path, '--lang', 'zh', '--no-color'])).stdout).toMatch(/ lost_reply +The reply is lost after the commit +lost_reply（reserve 第 1 次尝试） +succeeded\n/);
    const loaded = loadAll([path]);
    expect(loaded[0]!.type === 'runner' && loaded[0]!.scenario.zh).toBe(undefined);
    expect(titleOf(scenario('happy_path'), 'zh')).toBe('顺利路径：一个意图，一次尝试，一次效果');
  });

  it('a lab note without its zh: said in English inside the Chinese trace', async () => {
    const text = shipped('labs/breaker_trips_and_recovers.yaml').replace('    zh: "memory_service 运行正常"\n', '');
    const out = await cli(['run', file('note.yaml', text), '--lang', 'zh', '--no-color', '--width', '200']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('     0ms  注：memory_service is healthy\n');
    expect(out.stdout).toContain('   400ms  注：memory_service 开始出故障\n');
  });
});

describe('a malformed zh: is bad input, at its line and column', () => {
  const LOST = withoutZh(shipped('lost_reply.yaml'));
  /** `line:col` (1-based) of `needle` in `text`. */
  const at = (text: string, needle: string) => {
    const lines = text.slice(0, text.indexOf(needle)).split('\n');
    return `${lines.length}:${lines.at(-1)!.length + 1}`;
  };
  const refused = async (name: string, text: string, lang: 'en' | 'zh' = 'en') => {
    const out = await cli(['run', file(name, text), '--no-color', '--lang', lang]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    return out.stderr.split('\n').filter((line) => line.includes(`${name}:`)).map((line) => line.slice(line.indexOf(`${name}:`)));
  };

  it('a block without its explanation, a misspelt field, an empty title, a number for a text', async () => {
    const missing = `${LOST}zh:\n  title: '提交之后，回复丢了'\n`;
    expect(await refused('missing.yaml', missing)).toEqual([`missing.yaml:${at(missing, "title: '提交")}: zh.explain: missing (required)`]);
    expect(await refused('missing.yaml', missing, 'zh')).toEqual([`missing.yaml:${at(missing, "title: '提交")}: zh.explain: 缺少这个必填字段`]);
    const typo = `${LOST}zh:\n  titel: '提交之后，回复丢了'\n  explain: '说明'\n`;
    expect(await refused('typo.yaml', typo)).toEqual([
      `typo.yaml:${at(typo, 'titel:')}: zh.title: missing (required)`,
      `typo.yaml:${at(typo, 'titel:')}: zh.titel: unknown field — did you mean title?`,
    ]);
    const wrong = `${LOST}zh:\n  title: ''\n  explain: 42\n`;
    expect(await refused('wrong.yaml', wrong)).toEqual([
      `wrong.yaml:${at(wrong, "''")}: zh.title: must NOT have fewer than 1 characters`,
      `wrong.yaml:${at(wrong, '42')}: zh.explain: must be string (got 42)`,
    ]);
    const text = `${LOST}zh: 提交之后，回复丢了\n`;
    expect(await refused('text.yaml', text, 'zh')).toEqual([`text.yaml:${at(text, '提交')}: zh: 必须是键值映射（得到的是 "提交之后，回复丢了"）`]);
  });

  it('a lab: a zh: without a note, and a note step that also does something else', async () => {
    const lab = shipped('labs/breaker_trips_and_recovers.yaml');
    const alone = lab.replace('  - at_ms: 30899\n', '  - at_ms: 30899\n    zh: "等到 30899 ms"\n');
    expect(await refused('alone.yaml', alone)).toEqual([`alone.yaml:${at(alone, 'zh: "等到')}: steps[8].zh: zh is the Chinese of a note: it goes in a step only beside note:`]);
    expect(await refused('alone.yaml', alone, 'zh')).toEqual([`alone.yaml:${at(alone, 'zh: "等到')}: steps[8].zh: zh 是一条 note 的中文：它只能和 note: 写在同一步里`]);
    const crowded = lab.replace('    zh: "memory_service 运行正常"\n', '    zh: "memory_service 运行正常"\n    wait_ms: 5\n');
    expect(await refused('crowded.yaml', crowded)).toEqual([
      `crowded.yaml:${at(crowded, 'note: "memory_service is')}: steps[0]: a note step holds its note and its Chinese (zh), nothing else (got note, zh, wait_ms)`,
    ]);
    const top = lab.replace('\nzh:\n  title:', '\nzh:\n  tilte:');
    expect(await refused('top.yaml', top)).toContain(`top.yaml:${at(top, 'tilte:')}: zh.tilte: unknown field — did you mean title?`);
  });
});
