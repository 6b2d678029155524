/**
 * The HTML timeline of many workers (src/render/html/workerLanes.ts): a lane per worker and the sweeper, the
 * token on every write, each refused write and each lease's expiry at its moment, the queue's row in the panel;
 * and a run of one runner drawn exactly as before (no worker lane, no added style or script).
 */
import { describe, expect, it } from 'vitest';
import { judge } from '../../src/check/verdict.js';
import { renderRunHtml } from '../../src/render/html/index.js';
import { queueStates } from '../../src/render/html/workerLanes.js';
import { loadScenarios } from '../../src/scenario/load.js';
import { simulate } from '../../src/sim/simulate.js';

const runOf = async (path: string) => judge(await simulate(loadScenarios([path])[0]!));
const count = (html: string, pattern: RegExp) => (html.match(pattern) ?? []).length;

describe('zombie_after_pause as a page', () => {
  it('has a lane per worker and the sweeper, then the queue and the tool', async () => {
    const html = renderRunHtml('en', await runOf('scenarios/workers/zombie_after_pause.yaml'));
    expect(html).toContain('<body class="workers">');
    expect(html).toMatch(/<div class="wl-0">w1<small>[^<]*<\/small><\/div><div class="wl-1">w2<small>[^<]*<\/small><\/div><div class="wl-2">sweeper<small>/);
    expect(html).toContain('grid-template-columns: 5.2rem repeat(3, minmax(0,1.5fr))');
  });

  it('marks the token on every write: each saved line, each accepted finish, the receipt', async () => {
    const run = await runOf('scenarios/workers/zombie_after_pause.yaml');
    const html = renderRunHtml('en', run);
    const saved = run.trace.filter((e) => e.type === 'saved' && e.token !== undefined).length;
    const finished = run.trace.filter((e) => e.type === 'holder' && e.ok).length;
    // 15 lines saved (w1's 12, w2's 3), one completion, one receipt.
    expect([saved, finished]).toEqual([15, 1]);
    expect(count(html, /<span class="token" /g)).toBe(saved + finished + 1);
    expect(count(html, />token 2<\/span>/g)).toBe(5);
  });

  it('stops the zombie at its refused writes, and rings the lease’s expiry in its lane and on the queue', async () => {
    const html = renderRunHtml('en', await runOf('scenarios/workers/zombie_after_pause.yaml'));
    // The reserve (refused in the tool's transaction) and the tool_error line its runner then tried to save.
    expect(count(html, /<span class="refused">/g)).toBe(2);
    expect(html).toContain('<span class="refused">STALE_FENCE: reserve under token 1 refused — nothing written</span>');
    expect(count(html, /<span class="expiry">the lease of w1 \(token 1\) expired at 500ms<\/span>/g)).toBe(2);
  });

  it('follows the queue’s row as committed: queued, w1’s, queued again, w2’s, done', async () => {
    const { states } = queueStates(await runOf('scenarios/workers/zombie_after_pause.yaml'));
    expect(states.map((rows) => rows.map(([, v]) => (v === null ? null : `${v.state} ${v.owner ?? '-'} ${v.token}`)))).toEqual([
      ['queued - 0'],
      ['running w1 1'],
      ['queued - 1'],
      ['running w2 2'],
      ['done w2 2'],
    ]);
  });
});

describe('a page of one runner', () => {
  it('has no worker lane, and neither the style nor the script a many-worker page adds', async () => {
    const html = renderRunHtml('en', await runOf('scenarios/lost_reply.yaml'));
    expect(html).not.toContain('wl-');
    expect(html).not.toContain('data-q');
    expect(html).toContain('<body>');
  });
});
