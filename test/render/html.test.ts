/**
 * The HTML timeline as a pure function of a run: the rows of both databases at every moment derived from the
 * trace, a failing invariant placed at the step where it broke, the same bytes for the same run, nothing
 * fetched, and an event kind the renderer was not taught shown as a plain line. (The page in a real browser:
 * test/browser/timeline.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { mutantNamed } from '../../src/mutants/catalogue.js';
import { renderGradeHtml, renderRunHtml, timelineOf } from '../../src/render/html/index.js';
import { locateChecks } from '../../src/render/html/locateChecks.js';
import { narrate } from '../../src/render/narrate.js';
import { renderRun } from '../../src/render/renderText.js';
import { PLAIN } from '../../src/render/style.js';
import { loadScenarios } from '../../src/scenario/load.js';
import type { TraceEvent } from '../../src/sim/events.js';
import { run } from '../support.js';

const SEVENTEEN = loadScenarios().map((s) => s.id);

describe('the rows as they were then', () => {
  it.each(SEVENTEEN)('%s: replaying the trace’s committed diffs on the initial inventory ends at the real final database', async (id) => {
    const r = await run(id);
    const timeline = timelineOf(r);
    expect(timeline.dbStates[timeline.moments.at(-1)!.db]).toEqual(r.db);
  });

  it('lost_reply: no ledger row before the commit at step 4, one after, still one after the retry’s ledger hit', async () => {
    const r = await run('lost_reply');
    const { moments, dbStates } = timelineOf(r);
    const commit = r.trace.findIndex((e) => e.type === 'db' && e.committed && !e.ledgerHit);
    expect(r.trace[commit]!.step).toBe(4);
    expect(dbStates[moments[commit - 1]!.db]!.ledger).toEqual([]);
    expect(dbStates[moments[commit]!.db]!.ledger.map((row) => (row.result as { reservation_id: string }).reservation_id)).toEqual(['res_3192e4']);
    expect(dbStates[moments[commit]!.db]!.items.find((i) => i.item_id === 'camera')).toEqual({ item_id: 'camera', available: 2, version: 1 });
    expect(moments.filter((m) => m.dbChanged)).toHaveLength(1);
  });

  it('crash_before_commit: the change inside the rolled-back transaction never reaches the rows', async () => {
    const r = await run('crash_before_commit');
    const { moments, dbStates } = timelineOf(r);
    const crash = r.trace.findIndex((e) => e.type === 'crash');
    expect(dbStates[moments[crash]!.db]!.items.find((i) => i.item_id === 'camera')!.available).toBe(3);
    expect(moments[crash]!.runner).toBe(-1); // the process is down: nothing in memory
  });
});

describe('where a failing invariant broke', () => {
  it('puts inv3 of a runner that makes a new key per attempt at its second attempt, whose key is not the first one’s (step 5)', async () => {
    const r = await run('lost_reply', { runner: mutantNamed('new_key_per_attempt')!.runner });
    const at = locateChecks(r, timelineOf(r));
    const inv3 = [...at].find(([check]) => check.id === 'inv3_same_key_same_args')!;
    const event = r.trace[inv3[1]]!;
    expect(event).toMatchObject({ type: 'saved', label: 'attempt_started', step: 5 });
    expect(event.type === 'saved' && event.state.attempts).toBe(2);
    const page = renderRunHtml('en', r);
    expect(page).toContain(`<li class="moment lanes" id="m${inv3[1]}"`);
    expect(page).toMatch(new RegExp(`id="m${inv3[1]}"[^]*?<div class="span broke">inv3 every attempt of a pending action used its key and args; pending until answered, after every step: `));
  });

  it('puts inv1 of a store that writes the receipt outside the transaction at the commit that lost conservation', async () => {
    const mutant = mutantNamed('receipt_outside_transaction')!;
    const r = await run('crash_before_commit', { runner: mutant.runner, tool: mutant.tool! });
    const [, index] = [...locateChecks(r, timelineOf(r))].find(([check]) => check.id === 'inv1_one_effect_per_intent')!;
    expect(r.trace[index]).toMatchObject({ type: 'db', committed: true });
  });
});

describe('a page', () => {
  it('is the same bytes for the same run, and names nothing to fetch', async () => {
    const page = renderRunHtml('en', await run('crash_after_commit'));
    expect(renderRunHtml('en', await run('crash_after_commit'))).toBe(page);
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).not.toMatch(/\b(src|href)="(?!#)/); // no external script, style, image or font
    expect(page).toContain(`default-src 'none'`);
    expect(page).toContain('<div class="cut" role="separator">');
  });

  it('shows an event kind it was not taught as a plain line, in the text trace and on the page, instead of failing', async () => {
    const r = await run('happy_path');
    const odd = { type: 'weather', t: 5, step: 1, forecast: 'rain' } as unknown as TraceEvent;
    const pillar = {
      type: 'pillar',
      t: 6,
      step: 1,
      event: { type: 'breaker.transition', atMs: 6, dependency: 'memory_service', from: 'closed', to: 'open', requestCount: 3, failureRate: 2 / 3, resetTimeoutSeconds: 1, reason: 'failure_rate' },
    } as unknown as TraceEvent;
    const strange = { ...r, trace: [...r.trace.slice(0, 3), odd, pillar, ...r.trace.slice(3)] };
    expect(narrate('en', strange).filter((l) => l.event === 3).map((l) => l.parts.map((p) => p[0]).join(''))).toEqual(['weather: {"forecast":"rain"}']);
    const text = renderRun(strange, PLAIN, { lang: 'en', width: 120 });
    expect(text).toContain('weather: {"forecast":"rain"}');
    expect(text).toContain('breaker memory_service: closed → open (failure rate 0.67 over 3 results; refuses calls for 1 s)');
    expect(renderRunHtml('en', strange)).toContain('weather: {&quot;forecast&quot;:&quot;rain&quot;}');
  });

  it('for a grade, pairs the two runs step by step up to the divergence and folds the rest', async () => {
    const reference = await run('lost_reply');
    const learner = await run('lost_reply', { runner: mutantNamed('new_key_per_attempt')!.runner });
    const page = renderGradeHtml('en', reference, learner, { step: 4, seq: 12, text: 'step 4 (#12): your reserve has a new key' });
    expect(page.match(/ data-moment data-when/g)).toHaveLength(5); // steps 0–4
    expect(page).toContain('<div class="diverge">step 4 (#12): your reserve has a new key</div>');
    expect(page).toMatch(/<details><summary>the rest of your run \(\d+ step\(s\) after the divergence\)<\/summary>/);
  });
});
