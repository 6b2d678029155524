/**
 * The text trace of a many-worker run (src/render): a lane per worker, and — at the moment they happen — the
 * grant and its token, the token on every write, the lease's expiry, the zombie's refused write, in English and
 * in Chinese. A run of one runner keeps the chapter's layout to the byte (the golden outputs hold that).
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../support.js';

const trace = async (id: string, lang: 'en' | 'zh') => {
  const out = await cli(['run', id, '--no-color', '--width', '200', '--lang', lang]);
  expect(out.code, out.stderr).toBe(0);
  return out.stdout.split('\n');
};

/** The line at `t` in a worker's lane that says `text`. */
const lineOf = (lines: string[], t: string, worker: string, text: string) => lines.find((l) => new RegExp(`^\\s*${t} ${worker}\\s`).test(l) && l.includes(text));

describe('the trace of zombie_after_pause, in English', () => {
  it('has a worker column, and the workers facts in the header', async () => {
    const lines = await trace('zombie_after_pause', 'en');
    expect(lines).toContainEqual(expect.stringMatching(/^\s+t worker\s+step\s+#\s+event\s+calls\s+pending action \/ result$/));
    expect(lines.join('\n')).toContain('workers 2 · lease 500ms · sweep every 250ms');
  });

  it('shows each grant with its token and lease, the token on every saved line, the lease’s expiry and the zombie’s refusals when they happen', async () => {
    const lines = await trace('zombie_after_pause', 'en');
    expect(lineOf(lines, '0ms', 'w1', 'claims zombie_after_pause: granted · token 1 · lease until 500ms')).toBeDefined();
    expect(lineOf(lines, '500ms', 'w1', '⏰ the lease of w1 on zombie_after_pause (token 1) expired at 500ms, unrenewed')).toBeDefined();
    expect(lineOf(lines, '500ms', 'w2', 'claims zombie_after_pause: granted · token 2 · lease until 1000ms')).toBeDefined();
    expect(lineOf(lines, '500ms', 'w2', 'attempt_started     5  reserve(')).toMatch(/attempt 2 · token 2$/);
    expect(lines.find((l) => l.includes('under token 2: the receipt’s token, committed with it'))).toMatch(/^\s+w2\s/);
    expect(lineOf(lines, '1601ms', 'w1', '✘ ContractError STALE_FENCE: reserve of zombie_after_pause under token 1 by w1 refused: the task is done (token 2)')).toBeDefined();
    expect(lineOf(lines, '1601ms', 'w1', '✘ tool_error not saved: its token 1 is stale · definite: nothing written')).toBeDefined();
    expect(lineOf(lines, '1601ms', 'w1', '■ stops: another holds zombie_after_pause now — a zombie (token 1) writes nothing more')).toBeDefined();
  });
});

describe('the trace of zombie_after_pause, in Chinese', () => {
  it('says the same moments in the chapter’s words', async () => {
    const lines = await trace('zombie_after_pause', 'zh');
    expect(lines).toContainEqual(expect.stringMatching(/^\s+时间 进程\s+步骤/));
    expect(lineOf(lines, '0ms', 'w1', '认领 zombie_after_pause：已授予 · 令牌 1 · 租约到 500ms')).toBeDefined();
    expect(lineOf(lines, '500ms', 'w1', '⏰ w1 在 zombie_after_pause 上的租约（令牌 1）在 500ms 到期，没有续约')).toBeDefined();
    expect(lineOf(lines, '1601ms', 'w1', '✘ tool_error 没有保存：它的令牌 1 已经过期')).toBeDefined();
    expect(lines.join('\n')).toContain('工作进程 2 个 · 租约 500ms · 每 250ms 清扫一次');
  });
});

describe('the trace of a many-worker run is a function of the seed', () => {
  it('prints the same bytes twice, and other bytes for another seed', async () => {
    const run = (seed: string) => cli(['run', 'lease_expires_before_reserve', '--no-color', '--seed', seed]);
    const [a, b, c] = [await run('42'), await run('42'), await run('7')];
    expect(a.stdout).toBe(b.stdout);
    expect(c.stdout).not.toBe(a.stdout);
    expect([a.code, c.code]).toEqual([0, 0]);
  });
});
