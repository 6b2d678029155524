/**
 * The checks teach in Chinese too: each mutant's mistake is named in the chapter's words (意图、效果、回执、
 * 账本、预算). A check is the same value in every language — a code and its figures — worded at the edge.
 */
import { describe, expect, it } from 'vitest';
import { INVARIANTS } from '../../src/check/invariants.js';
import { word } from '../../src/render/words/index.js';
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { describeDurabilityEvent } from '../../src/render/durabilityEvent.js';
import { judged, scenario } from '../support.js';

/** The mutant's own scenario, judged: the check that catches it. */
async function caught(name: string) {
  const m = MUTANTS.find((x) => x.name === name)!;
  return (await judged(scenario(m.caughtBy.scenario), { runner: m.runner, tool: m.tool, storage: 'memory' })).checks.find((c) => c.id === m.caughtBy.invariant)!;
}

/** What the check that catches a mutant says, in Chinese. */
const inChinese = async (name: string) => word('zh', (await caught(name)).message);

describe('a failing check in Chinese', () => {
  it('names the mistake of each mutant, in other words than English for the same check', async () => {
    for (const m of MUTANTS) {
      const check = await caught(m.name);
      expect(word('zh', check.message), m.name).toMatch(/[\u4e00-\u9fff]/);
      expect(word('zh', check.message)).not.toBe(word('en', check.message));
    }
  });

  it('says why an effect without a receipt breaks the rule, with the figures of the ledger', async () => {
    expect(await inChinese('receipt_outside_transaction')).toBe(
      'camera 现在是 2（v1），可是初始的 3（v0）减去账本 0 行里的 0 件，应当是 3（v0）：有效果却没有回执 —— 效果和它的回执必须在同一个事务里提交',
    );
    expect(await inChinese('no_budget_check')).toBe('Runner 向线路发出了 5 个请求，而 max_calls 是 4：每次尝试之前都必须检查预算，重试也不例外');
    expect(await inChinese('waits_for_lost_reply')).toBe(
      '走了 100 步（上限 100）仍没有到达终止状态：状态还是 running，reserve 在 1 次尝试之后仍然待定 —— 运行已经停滞不前',
    );
  });

  it('titles the seven invariants in the language asked for', async () => {
    expect(word('zh', INVARIANTS[0].title)).toBe('每个意图至多一个效果');
    expect(word('en', INVARIANTS[0].title)).toBe('at most one effect per intent');
  });

  it('counts without English plurals: a pillar line says 1 次 and 3 次 alike', async () => {
    const gaveUp = (attempts: number) => describeDurabilityEvent('zh', { type: 'retry.gave_up', operationType: 'wiki_write', reason: 'exhausted', attempts, sentToDlq: true, atMs: 0 }).text;
    expect(gaveUp(1)).toBe('重试：wiki_write 经过 1 次尝试后耗尽 → 交给死信队列');
    expect(gaveUp(3)).toBe('重试：wiki_write 经过 3 次尝试后耗尽 → 交给死信队列');
    expect(describeDurabilityEvent('en', { type: 'retry.gave_up', operationType: 'wiki_write', reason: 'exhausted', attempts: 1, sentToDlq: true, atMs: 0 }).text).toBe(
      'retry: wiki_write exhausted after 1 attempt → for the DLQ',
    );
  });
});
