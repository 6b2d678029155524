/**
 * The trace in Chinese, where the chapter's readers meet it: the indefinite error and the truth the runner
 * cannot see, the crash and the recovery, the ledger hit, the checks — with the same figures as in English,
 * the same bytes for the same seed, and no line wider than the terminal but a key. (`--lang zh`.)
 */
import { describe, expect, it } from 'vitest';
import { renderRunHtml } from '../../src/render/html/index.js';
import { displayWidth } from '../../src/render/format.js';
import { cli, run } from '../support.js';

/** A Chinese sentence is found whatever the width cut it into: wrapping only adds spaces and line breaks. */
const squeezed = (text: string) => text.replace(/\s+/g, '');

describe('the trace in Chinese', () => {
  it('lost_reply: the reply is lost after the commit — INDEFINITE, the truth the runner cannot know, then the ledger hit', async () => {
    const out = await cli(['run', 'lost_reply', '--lang', 'zh', '--no-color']);
    expect(out.code).toBe(0);
    const text = squeezed(out.stdout);
    expect(text).toContain(squeezed('⚡ 故障 lost_reply（reserve 第 1 次尝试）：工具已经提交；回复在返回途中丢失'));
    expect(text).toContain(squeezed('✘ TransientError lost_reply · 不确定失败（INDEFINITE）：效果可能已经发生 —— 只能用同一个键重试'));
    expect(text).toContain(squeezed('实际上：已经提交了库存 camera 3→2（v0→v1） · 账本 +1（res_3192e4）；Runner 无从得知'));
    expect(text).toContain(squeezed('账本命中：同一个键、同一个指纹 → 返回原回执 res_3192e4，不做任何改动'));
    expect(out.stdout).toContain('← 键在这里生成，只生成这一次（任务、器材、数量）：\n');
    // The table heads and the verdict speak Chinese; the figures are the English run's.
    expect(out.stdout).toMatch(/时间 步骤 {2}# {2}事件 +调用 {2}待定动作 \/ 结果/);
    expect(out.stdout).toContain('  通过 lost_reply: succeeded · 调用 5 · 账本 1 · 库存 camera 2\n');
    const en = await cli(['run', 'lost_reply', '--no-color']);
    expect(en.stdout).toContain('  PASS lost_reply: succeeded · calls 5 · ledger 1 · stock camera 2\n');
  });

  it('crash_after_commit: the crash cuts the process after the commit, and a new runner resumes from the log', async () => {
    const text = squeezed((await cli(['run', 'crash_after_commit', '--lang', 'zh', '--no-color'])).stdout);
    expect(text).toContain(squeezed('✖ 崩溃（crash_after_commit）：reserve 提交之后崩溃；它的回复始终没有送到 —— 两个连接都已关闭，未提交的工作全部丢失'));
    expect(text).toContain(squeezed('实际上：已经提交了库存 camera 3→2（v0→v1） · 账本 +1（res_3192e4）；Runner 始终没有看到'));
    expect(text).toContain(squeezed('↻ 已恢复：新的连接，新的 ReferenceRunner；按日志（到事件 #12 为止）重建了状态 —— reserve 待定，第 1 次尝试，调用 4'));
    expect(text).toContain(squeezed('1 次崩溃均已恢复'));
  });

  it('speaks the checks of a broken runner in Chinese: the rule, what happened, and the fix, with the same checks failing', async () => {
    const zh = await cli(['run', 'lost_reply', '--runner', 'mutant:new_key_per_attempt', '--lang', 'zh', '--no-color', '--json']);
    const en = await cli(['run', 'lost_reply', '--runner', 'mutant:new_key_per_attempt', '--no-color', '--json']);
    expect(zh.code).toBe(1);
    const failed = (doc: string) => (JSON.parse(doc).scenarios[0].violations as Array<{ check: string }>).map((v) => v.check);
    expect(failed(zh.stdout)).toEqual(failed(en.stdout));
    expect(failed(zh.stdout)).toEqual(['status', 'pending', 'inv3_same_key_same_args']);
    const inv3 = (JSON.parse(zh.stdout).scenarios[0].violations as Array<{ check: string; message: string }>).find((v) => v.check === 'inv3_same_key_same_args')!;
    expect(inv3.message).toBe(
      'reserve（第 4 个决策）在第 5 次调用时用的键是 lost_reply:reserve:attempt-5，而它的第一次尝试（第 4 次调用）用的是 lost_reply:reserve:attempt-4：重试必须沿用准备这个动作时生成的那个键',
    );
    const text = squeezed((await cli(['run', 'lost_reply', '--runner', 'mutant:new_key_per_attempt', '--lang', 'zh', '--no-color'])).stdout);
    expect(text).toContain(squeezed('✘ inv3 待定动作的每次尝试都沿用它的键和参数'));
    expect(text).toContain(squeezed('✘ status 预期 succeeded · 实际 tool_error'));
    expect(text).toContain(squeezed('status：预期 "succeeded"，实际 "tool_error" —— 运行的终止状态'));
    expect(text).toContain(squeezed('⚠ 自上次保存这个动作以来，键变了'));
  });

  it('is the same bytes for the same seed and the same language', async () => {
    const once = await cli(['run', 'crash_after_commit', 'lost_reply', '--lang', 'zh', '--no-color', '--seed', '7']);
    const again = await cli(['run', 'crash_after_commit', 'lost_reply', '--lang', 'zh', '--no-color', '--seed', '7']);
    expect(again.stdout).toBe(once.stdout);
    expect(once.stdout).toContain('种子 7');
  });

  it('fits the width: --width 80 prints no Chinese line wider than 80 columns but the one key English prints there too', async () => {
    const zh = await cli(['run', '--all', '--width', '80', '--no-color', '--lang', 'zh']);
    const en = await cli(['run', '--all', '--width', '80', '--no-color']);
    const over = (text: string) => text.split('\n').filter((line) => displayWidth(line) > 80).map((line) => line.trim());
    expect(over(zh.stdout)).toEqual(['retry_after_version_moved:reserve:2872d1b41daae32b0ce88be6d8774feb']);
    expect(over(zh.stdout)).toEqual(over(en.stdout));
    // A closing mark never starts a line, an opening one never ends one: Chinese wraps as Chinese does.
    expect(zh.stdout).not.toMatch(/^ *[，。：；）]/m);
    expect(zh.stdout).not.toMatch(/（$/m);
  });
});

describe('the page in Chinese', () => {
  it('declares lang="zh", names its lanes and its marks in Chinese, and keeps the same moments', async () => {
    const r = await run('crash_after_commit');
    const zh = renderRunHtml('zh', r);
    const en = renderRunHtml('en', r);
    expect(zh).toContain('<html lang="zh">');
    expect(en).toContain('<html lang="en">');
    expect(zh).toContain('<div class="l-wire">线路<small>请求 → · ← 回复</small></div>');
    expect(zh).toContain('.truth::before { content: "Runner 看不到这一行 · ";');
    expect(zh).toContain('<span class="line deep truth"><span class="tone-bad">实际上：已经提交了库存 camera 3→2（v0→v1） · 账本 +1（res_3192e4）；Runner 始终没有看到</span></span>');
    expect(zh).toContain("el.textContent = (i + 1) + ' / ' + moments.length;");
    expect(zh.match(/data-moment/g)!.length).toBe(en.match(/data-moment/g)!.length);
    const lost = renderRunHtml('zh', await run('lost_reply'));
    expect(lost).toContain('<span class="certainty indefinite" title="效果可能已经发生">不确定</span>');
  });
});
