/**
 * `faultlab explore --lang zh`: the report, the coverage and each violation in Chinese, with the English
 * exploration's figures, and a replay file that says in Chinese what broke.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { huntMutant } from '../../src/explore/mutants.js';
import { renderMutants } from '../../src/explore/report.js';
import { mutantNamed } from '../../src/mutants/catalogue.js';
import { PLAIN } from '../../src/render/style.js';
import { cli, scenario } from '../support.js';
import { tempDir } from './helpers.js';

describe('faultlab explore in Chinese', () => {
  it('reports an exploration that breaks nothing, with the English figures', async () => {
    const zh = await cli(['explore', 'happy_path', 'lost_reply', '--workers', '1', '--out', tempDir(), '--lang', 'zh']);
    expect(zh.code).toBe(0);
    expect(zh.stdout).toContain('\n   1  happy_path                         51         4      38/50  0\n');
    expect(zh.stdout).toContain('110 个调度（2 个原样场景，108 个加了一个故障）');
    expect(zh.stdout).toContain('  故障覆盖 — 添加的故障中真正触发的数目 / 添加的数目：');
    expect(zh.stdout).toMatch(/crash_after_event +30 \/ 30\n/);
    expect(zh.stdout).toContain('从未触发：4 个在运行的最后一次调用之后');
    expect(zh.stdout).toContain('✔ 没有哪个调度打破不变量。');
  });

  it('names a violation, its minimal schedule and its replay in Chinese, explored by two worker threads', async () => {
    const dir = tempDir();
    const zh = await cli(['explore', 'happy_path', '--runner', 'mutant:new_key_per_attempt', '--workers', '2', '--out', dir, '--lang', 'zh', '--no-color']);
    const enDir = tempDir();
    const en = await cli(['explore', 'happy_path', '--runner', 'mutant:new_key_per_attempt', '--workers', '2', '--out', enDir, '--json']);
    expect(zh.code).toBe(1);
    expect(zh.stdout).toContain('  ✘ 1 处违规（5 个“规则-调度”组合被打破），每处都已缩减到最小的调度：');
    expect(zh.stdout).toContain('  ✘ happy_path 打破了 inv3_same_key_same_args —— 共 5 个调度');
    expect(zh.stdout).toContain('    最小调度    happy_path 加上 transient（reserve 第 1 次尝试 第 4 次调用）');
    expect(zh.stdout).toContain('重试必须沿用准备这个动作时生成的那个键');
    expect(JSON.parse(en.stdout).violations[0].schedule).toEqual([{ kind: 'transient', at: { tool: 'reserve', attempt: 1, call: 4 } }]);
    const replay = readFileSync(join(dir, 'happy_path__inv3.yaml'), 'utf8');
    expect(replay).toContain('# 这里故意什么都不预期');
    // Like a shipped scenario: English first, the Chinese in its zh: block — whichever language found it.
    const replayEn = readFileSync(join(enDir, 'happy_path__inv3.yaml'), 'utf8');
    for (const file of [replay, replayEn]) {
      // The title is long enough for the YAML to fold it: read as YAML, it is one line.
      expect((parse(file) as { title: string }).title).toBe('Explored: happy_path breaks "every attempt of a pending action used its key and args; pending until answered, after every step"');
      expect(file).toContain('a retry must\n  reuse the key made when the action was prepared.');
      expect((parse(file) as { zh: { title: string } }).zh.title).toBe('探索所得：happy_path 打破了“待定动作的每次尝试都沿用它的键和参数；它一直待定到得到回答，每一步之后都如此”');
      expect(file).toContain('重试必须沿用准备这个动作时生成的那个键。去掉这个故障，规则就依然成立。');
    }
    // Only the comments speak the language the exploration ran in.
    const uncommented = (file: string) => file.split('\n').filter((line) => !line.startsWith('#')).join('\n');
    expect(uncommented(replayEn)).toBe(uncommented(replay));
    expect(replayEn).toContain('# Nothing expected on purpose');
    const shown = await cli(['run', join(dir, 'happy_path__inv3.yaml'), '--runner', 'mutant:new_key_per_attempt', '--lang', 'zh', '--no-color']);
    expect(shown.stdout).toContain('探索所得：happy_path 打破了');
    // A replay's explanation says who broke what: it is not the reference runner's story, whoever plays it.
    expect(shown.stdout).toContain('  由 faultlab explore（mutant:new_key_per_attempt Runner）');
    const shownEn = await cli(['run', join(dir, 'happy_path__inv3.yaml'), '--runner', 'mutant:new_key_per_attempt', '--no-color']);
    expect(shownEn.stdout.split('\n').find((line) => line.startsWith('  Found by'))).toBe('  Found by faultlab explore (mutant:new_key_per_attempt runner): happy_path with');
    // The file replays in either language, and fails where the schedule did.
    const again = await cli(['run', join(dir, 'happy_path__inv3.yaml'), '--runner', 'mutant:new_key_per_attempt', '--quiet']);
    expect(again.code).toBe(1);
  });

  it('hunts a mutant in Chinese: its mistake in a sentence, where it was caught, and the tally', async () => {
    const mutant = mutantNamed('new_key_per_attempt')!;
    const text = renderMutants('zh', [{ hunt: await huntMutant(mutant, [scenario('happy_path'), scenario('lost_reply')]), replay: 'faultlab run x.yaml' }], PLAIN);
    expect(text).toContain('faultlab explore --mutants — 1 个故意写错的 Runner 和存储；每一个都必须被某个不变量抓住');
    expect(text).toContain('  ✔ new_key_per_attempt — 每次尝试都生成一个新的幂等键，于是在账本看来，每次重试都像一个新的意图');
    expect(text).toContain('      固定场景        lost_reply → inv3_same_key_same_args');
    expect(text).toContain('      最小调度        happy_path 加上 transient（reserve 第 1 次尝试 第 4 次调用）');
    expect(text).toContain('  1 个变异体中抓住了 1 个');
    expect(text).toContain('  从未抓住任何变异体：inv1_one_effect_per_intent');
  });
});
