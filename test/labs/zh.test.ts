/** A lab in Chinese: the same experiment, the same figures and verdicts (a run is the same value), its steps and its table said in Chinese. */
import { describe, expect, it } from 'vitest';
import { word } from '../../src/render/words/index.js';
import { runLab } from '../../src/labs/index.js';
import { displayWidth } from '../../src/render/format.js';
import { cli } from '../support.js';
import { loadLab } from './helpers.js';

describe('a lab in Chinese', () => {
  it('breaker_trips_and_recovers: the breaker opens, refuses, is probed and closes — in Chinese, with the English figures', async () => {
    const out = await cli(['run', 'scenarios/labs/breaker_trips_and_recovers.yaml', '--lang', 'zh', '--no-color', '--width', '200']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('  种子 42 · 实验 breaker · 没有 Runner：由实验直接驱动各根支柱\n');
    expect(out.stdout).toContain('   900ms  断路器 memory_service：closed → open（10 个结果中失败率 0.60；30 s 内拒绝调用）\n');
    expect(out.stdout).toContain('  1000ms  ↳ 断路器 memory_service：CircuitOpen —— open；调用被拒绝，根本没有到达 memory_service（29900 ms 后才有机会）\n');
    expect(out.stdout).toContain('   900ms  ▶ 快照 nine_results：closed；失败率 5/9 = 0.5556\n');
    expect(out.stdout).toContain('  ✔ rejected_while_open    预期 4 · 实际 4\n');
    expect(out.stdout).toContain('  通过 breaker_trips_and_recovers：11 项检查全部成立\n');
    const en = await cli(['run', 'scenarios/labs/breaker_trips_and_recovers.yaml', '--json']);
    const inChinese = await cli(['run', 'scenarios/labs/breaker_trips_and_recovers.yaml', '--json', '--lang', 'zh']);
    expect(JSON.parse(inChinese.stdout)).toEqual(JSON.parse(en.stdout));
  });

  it('says what a figure means when it differs from the lab’s expectation', () => {
    const lab = { ...loadLab('backoff_schedule'), expect: { 'attempts.jitter_off': 99 } };
    const [check] = runLab(lab, { seed: 42 }).checks;
    expect(check!.passed).toBe(false);
    expect(word('zh', check!.message)).toMatch(/^预期 attempts\.jitter_off = 99，实际 \d+ —— 做了几次尝试，包括第一次$/);
  });

  it('thundering_herd: the table heads line up by display width, not by string length', async () => {
    const out = (await cli(['run', 'scenarios/labs/thundering_herd.yaml', '--lang', 'zh', '--no-color'])).stdout;
    const lines = out.split('\n');
    const head = lines.findIndex((l) => l.includes('策略') && l.includes('尝试次数'));
    expect(head).toBeGreaterThan(0);
    // Every row of the comparison ends at the same column as its head: the numbers are right-aligned under it.
    const rows = lines.slice(head, head + 6);
    expect(new Set(rows.map((l) => displayWidth(l))).size).toBe(1);
    expect(out).toContain('    尝试次数由少到多：');
    expect(out).toContain('    清空时间由快到慢：');
  });
});
