/**
 * Exploring in one thread gives the event loop a turn while it works. A crash's committed image is a buffer
 * SQLite allocated, and Node frees it only on a later turn: an exploration that never yields keeps every
 * image of the whole search (depth 2 in one thread peaked at ~610 MB before it yielded).
 */
import { describe, expect, it } from 'vitest';
import { explore } from '../../src/explore/explore.js';
import { byId } from './helpers.js';
import { onItsOwnTurn } from '../../src/explore/ownTurn.js';

describe('one thread', () => {
  it('lets a turn of the event loop run within the first tasks, not only at the end', async () => {
    let turned = false;
    let turnedBy: number | null = null;
    setImmediate(() => (turned = true));
    const exploration = await explore([byId('crash_after_commit')], {
      workers: 1,
      onProgress: (done) => {
        if (turned && turnedBy === null) turnedBy = done;
      },
    });
    expect(exploration.total.runs[1]).toBeGreaterThan(16); // schedules with one added fault
    expect(turnedBy).not.toBeNull();
    expect(turnedBy!).toBeLessThanOrEqual(9);
  });
});

describe('a worker thread', () => {
  it('handles the batches waiting at its port one turn of the event loop at a time, in order', async () => {
    const seen: string[] = [];
    const handle = onItsOwnTurn((batch: string) => void seen.push(batch));
    // Two batches arrive together, as a port hands them over; a turn is asked for between the two arrivals.
    handle('first');
    setImmediate(() => seen.push('a turn'));
    handle('second');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual(['first', 'a turn', 'second']);
  });

  it('gives the same depth-2 tally with batches queued ahead at a worker as in one thread', async () => {
    const scenarios = [byId('read_only'), byId('policy_error')];
    const one = await explore(scenarios, { depth: 2, workers: 1 });
    const two = await explore(scenarios, { depth: 2, workers: 2 });
    expect(one.total.total).toBe(285 + 285);
    // Scenario by scenario: a batch's tallies filed under another task would still add up to the same total.
    expect(two.scenarios.map(({ tally }) => tally.toData())).toEqual(one.scenarios.map(({ tally }) => tally.toData()));
  }, 60_000);
});
