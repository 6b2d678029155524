/**
 * Exploring in one thread gives the event loop a turn while it works. A crash's committed image is a buffer
 * SQLite allocated, and Node frees it only on a later turn: an exploration that never yields keeps every
 * image of the whole search (depth 2 in one thread peaked at ~610 MB before it yielded).
 */
import { describe, expect, it } from 'vitest';
import { explore } from '../../src/explore/explore.js';
import { byId } from './helpers.js';

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
