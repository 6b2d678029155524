import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../../src/durability/checkpoint/CheckpointStore.js';
import { DEFAULT_DURABILITY_CONFIG } from '../../../src/durability/config/defaults.js';
import { CheckpointError, isDurabilityError } from '../../../src/durability/errors.js';
import { crashAndReopen } from '../../../src/core/storage.js';
import { bench, HOUR, ofType, SECOND } from '../helpers.js';

function store(config: Partial<typeof DEFAULT_DURABILITY_CONFIG.checkpoint> = {}) {
  const b = bench();
  return { ...b, cp: new CheckpointStore({ db: b.db, clock: b.clock, config: { ...DEFAULT_DURABILITY_CONFIG.checkpoint, ...config }, events: b.sink }) };
}

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (error) {
    return isDurabilityError(error) ? error.code : 'not a durability error';
  }
  return undefined;
}

describe('save: a manifest entry with a sequence id and a stored expiry', () => {
  it('numbers checkpoints from a sequence and links each to the task’s previous one', () => {
    const { cp, clock } = store();
    const first = cp.save('task-1', 'agent-1', 'gather', { rows: 3 });
    clock.advance(1_000);
    const second = cp.save('task-1', 'agent-1', 'draft', { words: 200 });
    expect(first).toEqual({
      checkpointId: 'cp-000001',
      taskId: 'task-1',
      agentId: 'agent-1',
      phase: 'gather',
      state: { rows: 3 },
      createdAtMs: 0,
      expiresAtMs: 86_400 * SECOND,
      parentCheckpointId: null,
      seq: 1,
    });
    expect(second).toMatchObject({ checkpointId: 'cp-000002', parentCheckpointId: 'cp-000001', createdAtMs: 1_000 });
  });

  it('uses the given ttl in seconds, and refuses ttl 0 (a checkpoint born expired)', () => {
    const { cp } = store();
    expect(cp.save('t', 'a', 'p', {}, 60).expiresAtMs).toBe(60 * SECOND);
    expect(codeOf(() => cp.save('t', 'a', 'p', {}, 0))).toBe('CHECKPOINT_INVALID_TTL');
    expect(codeOf(() => cp.save('t', 'a', 'p', {}, -5))).toBe('CHECKPOINT_INVALID_TTL');
    expect(codeOf(() => cp.save('t', 'a', 'p', {}, Number.NaN))).toBe('CHECKPOINT_INVALID_TTL');
  });
});

describe('restore: the latest live checkpoint, by sequence number', () => {
  it('returns the later of two saves made in the same millisecond', () => {
    const { cp } = store();
    cp.save('task-1', 'agent-1', 'gather', { n: 1 });
    cp.save('task-1', 'agent-1', 'draft', { n: 2 });
    expect(cp.restore('task-1', 'agent-1')).toMatchObject({ phase: 'draft', state: { n: 2 } });
  });

  it('can restore a named phase', () => {
    const { cp } = store();
    cp.save('task-1', 'agent-1', 'gather', { n: 1 });
    cp.save('task-1', 'agent-1', 'draft', { n: 2 });
    expect(cp.restore('task-1', 'agent-1', 'gather').state).toEqual({ n: 1 });
  });

  it('is live 1 ms before expires_at and Expired exactly at it', () => {
    const { cp, clock } = store();
    cp.save('task-1', 'agent-1', 'gather', {}, 60);
    clock.advanceTo(60 * SECOND - 1);
    expect(cp.restore('task-1', 'agent-1').phase).toBe('gather');
    clock.advance(1);
    expect(codeOf(() => cp.restore('task-1', 'agent-1'))).toBe('CHECKPOINT_EXPIRED');
  });

  it('falls back to an older checkpoint that is still live when a newer one expired first', () => {
    const { cp, clock } = store();
    cp.save('task-1', 'agent-1', 'gather', {}, 3_600);
    cp.save('task-1', 'agent-1', 'draft', {}, 10);
    clock.advance(10 * SECOND);
    expect(cp.restore('task-1', 'agent-1').phase).toBe('gather');
  });

  it('answers NotFound for a task never saved (or another agent’s task)', () => {
    const { cp } = store();
    cp.save('task-1', 'agent-1', 'gather', {});
    expect(codeOf(() => cp.restore('task-2', 'agent-1'))).toBe('CHECKPOINT_NOT_FOUND');
    expect(codeOf(() => cp.restore('task-1', 'agent-2'))).toBe('CHECKPOINT_NOT_FOUND');
  });
});

describe('a crash loses nothing committed, and revives nothing expired (ours)', () => {
  it('restores the last saved phase through a new connection', () => {
    const { cp, clock, db } = store();
    cp.save('task-1', 'agent-1', 'gather', { rows: 3 });
    cp.save('task-1', 'agent-1', 'draft', { words: 200 });
    const again = new CheckpointStore({ db: crashAndReopen(db), clock });
    expect(again.restore('task-1', 'agent-1')).toMatchObject({ checkpointId: 'cp-000002', phase: 'draft', state: { words: 200 } });
    expect(again.save('task-1', 'agent-1', 'publish', {}).checkpointId).toBe('cp-000003'); // ids are never reissued
  });

  it('keeps each checkpoint’s real expires_at after reopening: an expired one stays expired', () => {
    const { cp, clock, db } = store();
    cp.save('task-1', 'agent-1', 'gather', {}, 60);
    clock.advance(30 * SECOND);
    const again = new CheckpointStore({ db: crashAndReopen(db), clock });
    expect(again.get('cp-000001')?.expiresAtMs).toBe(60 * SECOND);
    clock.advance(30 * SECOND);
    expect(codeOf(() => again.restore('task-1', 'agent-1'))).toBe('CHECKPOINT_EXPIRED');
  });
});

describe('max_checkpoints: after an insert, the oldest live entries are evicted', () => {
  it('keeps the newest 3 of 4 and reports the eviction', () => {
    const { cp, events } = store({ maxCheckpoints: 3 });
    for (const phase of ['a', 'b', 'c', 'd']) cp.save('task-1', 'agent-1', phase, {});
    expect(cp.list().map((c) => c.phase)).toEqual(['b', 'c', 'd']);
    expect(ofType(events, 'checkpoint.evicted')).toEqual([{ type: 'checkpoint.evicted', atMs: 0, checkpointId: 'cp-000001' }]);
  });

  it('does not count expired entries as live', () => {
    const { cp, clock } = store({ maxCheckpoints: 2 });
    cp.save('task-1', 'agent-1', 'old', {}, 1);
    clock.advance(SECOND);
    cp.save('task-1', 'agent-1', 'b', {});
    cp.save('task-1', 'agent-1', 'c', {});
    expect(cp.list().map((c) => c.phase)).toEqual(['old', 'b', 'c']);
  });
});

describe('cleanup: hourly and lazy, on save', () => {
  it('purges expired checkpoints on the first save an hour after the last purge', () => {
    const { cp, clock } = store();
    cp.save('task-1', 'agent-1', 'short', {}, 60);
    clock.advanceTo(HOUR - 1);
    cp.save('task-1', 'agent-1', 'b', {});
    expect(cp.list()).toHaveLength(2);
    clock.advanceTo(HOUR);
    cp.save('task-1', 'agent-1', 'c', {});
    expect(cp.list().map((c) => c.phase)).toEqual(['b', 'c']);
  });
});

describe('fork, rewind and lineage (ours)', () => {
  it('fork starts a new task from a copy whose parent is the source', () => {
    const { cp } = store();
    const outline = cp.save('essay', 'writer', 'outline', { points: 3 });
    const fork = cp.fork(outline.checkpointId, 'essay-alt');
    expect(fork).toMatchObject({ taskId: 'essay-alt', agentId: 'writer', phase: 'outline', state: { points: 3 }, parentCheckpointId: outline.checkpointId });
  });

  it('rewind makes an earlier checkpoint the task’s latest again', () => {
    const { cp } = store();
    const outline = cp.save('essay', 'writer', 'outline', { points: 3 });
    cp.save('essay', 'writer', 'draft', { words: 900 });
    const rewound = cp.rewind('essay', outline.checkpointId);
    expect(rewound.parentCheckpointId).toBe(outline.checkpointId);
    expect(cp.restore('essay', 'writer')).toMatchObject({ checkpointId: rewound.checkpointId, phase: 'outline', state: { points: 3 } });
  });

  it('refuses to rewind a task to another task’s checkpoint', () => {
    const { cp } = store();
    const other = cp.save('other', 'writer', 'outline', {});
    expect(codeOf(() => cp.rewind('essay', other.checkpointId))).toBe('CHECKPOINT_TASK_MISMATCH');
  });

  it('refuses to fork an expired or unknown checkpoint', () => {
    const { cp, clock } = store();
    const c = cp.save('essay', 'writer', 'outline', {}, 5);
    clock.advance(5 * SECOND);
    expect(codeOf(() => cp.fork(c.checkpointId, 'x'))).toBe('CHECKPOINT_EXPIRED');
    expect(codeOf(() => cp.fork('cp-999999', 'x'))).toBe('CHECKPOINT_NOT_FOUND');
  });

  it('lineage walks the parents newest first, across a fork', () => {
    const { cp } = store();
    const outline = cp.save('essay', 'writer', 'outline', {});
    cp.save('essay', 'writer', 'draft', {});
    const fork = cp.fork(outline.checkpointId, 'essay-alt');
    const altDraft = cp.save('essay-alt', 'writer', 'draft', {});
    expect(cp.lineage(altDraft.checkpointId).map((c) => `${c.checkpointId} ${c.taskId}/${c.phase}`)).toEqual([
      'cp-000004 essay-alt/draft',
      `${fork.checkpointId} essay-alt/outline`,
      'cp-000001 essay/outline',
    ]);
  });

  it('lineage stops where a parent was evicted, and refuses an unknown id', () => {
    const { cp } = store({ maxCheckpoints: 2 });
    cp.save('t', 'a', 'one', {});
    cp.save('t', 'a', 'two', {});
    const three = cp.save('t', 'a', 'three', {});
    expect(cp.lineage(three.checkpointId).map((c) => c.phase)).toEqual(['three', 'two']);
    expect(() => cp.lineage('cp-000001')).toThrow(CheckpointError);
  });
});

describe('a fork is committed like any save', () => {
  it('survives a crash: the new task restores the fork, and its lineage still reaches the source', () => {
    const { cp, clock, db } = store();
    const outline = cp.save('essay', 'writer', 'outline', { points: 3 });
    const fork = cp.fork(outline.checkpointId, 'essay-alt');
    const again = new CheckpointStore({ db: crashAndReopen(db), clock });
    expect(again.restore('essay-alt', 'writer')).toEqual(fork);
    expect(again.lineage(fork.checkpointId).map((c) => c.checkpointId)).toEqual([fork.checkpointId, outline.checkpointId]);
  });
});

describe('clearTask: a finished task’s manifest is torn up', () => {
  function threeTasks() {
    const t = store();
    t.cp.save('task-1', 'agent-1', 'gather', {});
    t.cp.save('task-1', 'agent-1', 'draft', {});
    t.cp.save('task-1', 'agent-2', 'review', {});
    t.cp.save('task-2', 'agent-1', 'gather', {});
    return t;
  }

  it('removes one agent’s checkpoints of the task and nothing else, and says how many', () => {
    const { cp, events } = threeTasks();
    expect(cp.clearTask('task-1', 'agent-1')).toBe(2);
    expect(codeOf(() => cp.restore('task-1', 'agent-1'))).toBe('CHECKPOINT_NOT_FOUND');
    expect(cp.list().map((c) => `${c.taskId}/${c.agentId}/${c.phase}`)).toEqual(['task-1/agent-2/review', 'task-2/agent-1/gather']);
    expect(ofType(events, 'checkpoint.cleared')).toEqual([{ type: 'checkpoint.cleared', atMs: 0, taskId: 'task-1', agentId: 'agent-1', removed: 2 }]);
  });

  it('without an agent, removes every agent’s checkpoints of the task', () => {
    const { cp } = threeTasks();
    expect(cp.clearTask('task-1')).toBe(3);
    expect(cp.list().map((c) => c.taskId)).toEqual(['task-2']);
    expect(cp.clearTask('task-1')).toBe(0);
  });

  it('lets the task start a fresh chain, with ids never reissued, and stays cleared after a crash', () => {
    const { cp, clock, db } = threeTasks();
    cp.clearTask('task-1', 'agent-1');
    const fresh = cp.save('task-1', 'agent-1', 'gather', {});
    expect(fresh).toMatchObject({ checkpointId: 'cp-000005', parentCheckpointId: null });
    const again = new CheckpointStore({ db: crashAndReopen(db), clock });
    expect(again.restore('task-1', 'agent-1').checkpointId).toBe('cp-000005');
    expect(again.get('cp-000001')).toBeUndefined();
  });
});
