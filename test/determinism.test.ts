/** Same scenario + same seed = byte-identical trace (`--no-color`), for all 17 — in one process and across processes. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadScenarios } from '../src/scenario/load.js';
import { renderRun } from '../src/render/renderText.js';
import { PLAIN } from '../src/render/style.js';
import { judged } from './support.js';

const scenarios = loadScenarios();
const trace = async (id: string, seed: number, storage: 'file' | 'memory' = 'file') =>
  renderRun(await judged(scenarios.find((s) => s.id === id)!, { seed, storage }), PLAIN, { lang: 'en' });

describe('determinism', () => {
  it.each(scenarios.map((s) => s.id))('%s: the same seed gives a byte-identical trace', async (id) => {
    const first = await trace(id, 42);
    expect(await trace(id, 42)).toBe(first);
    expect(first).toContain(`seed 42`);
    expect(first).not.toMatch(/\x1b\[/); // plain: no colour codes
  });

  it('memory and file storage tell the same story', async () => {
    for (const s of scenarios) expect(await trace(s.id, 42, 'memory')).toBe(await trace(s.id, 42, 'file'));
  });

  it('another seed changes the timings and the receipt ids, never the figures', async () => {
    const a = await judged(scenarios.find((s) => s.id === 'lost_reply')!, { seed: 1 });
    const b = await judged(scenarios.find((s) => s.id === 'lost_reply')!, { seed: 2 });
    expect(renderRun(a, PLAIN, { lang: 'en' })).not.toBe(renderRun(b, PLAIN, { lang: 'en' }));
    expect(a.db.ledger[0]!.result).not.toEqual(b.db.ledger[0]!.result);
    expect([a.state?.status, a.state?.calls, a.db.ledger.length]).toEqual([b.state?.status, b.state?.calls, b.db.ledger.length]);
  });

  it('two separate processes print the same bytes for `faultlab run --all --no-color`', async () => {
    const once = () => execFileSync(process.execPath, ['bin/faultlab.js', 'run', '--all', '--no-color', '--seed', '7'], { encoding: 'utf8' });
    const first = once();
    expect(first).toContain('17 passed, 0 failed (seed 7, reference runner)');
    expect(first.match(/^━━ \d+\/17 /gm)).toHaveLength(17); // every trace, not only the two the demo shows
    expect(once()).toBe(first);
  });
});
