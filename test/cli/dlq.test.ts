/**
 * `faultlab dlq`: the dead letters a kept run left behind, listed, and replayed by an operator with their key —
 * one ledger row, the original receipt, the invariants held over the whole log.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../tempFolder.js';
import Database from 'better-sqlite3';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import { cli } from '../support.js';

/** lost_reply_dead_letter_replay without its automatic replay: the record stays pending for an operator. */
function keptScenario(dir: string): string {
  const text = readFileSync(join(SCENARIOS_DIR, 'pillars', 'lost_reply_dead_letter_replay.yaml'), 'utf8')
    .replaceAll('lost_reply_dead_letter_replay', 'lost_reply_left_in_dlq')
    .replace('dlq: { replay_after_ms: 60000 }', 'dlq: {}')
    .replace(/expect:[\s\S]*$/, 'expect:\n  status: retry_exhausted\n  ledger: 1\n  durability: { dlq: [pending], replays: 0 }\n');
  const file = join(dir, 'lost_reply_left_in_dlq.yaml');
  writeFileSync(file, text);
  return file;
}

describe('faultlab dlq', () => {
  it('lists the record a kept run left pending, replays it into the original receipt, and refuses a second replay', async () => {
    const dir = tempFolder('dlq');
    const kept = join(dir, 'kept');
    const ran = await cli(['run', keptScenario(dir), '--keep-db', kept, '--quiet']);
    expect(ran.code).toBe(0);

    const listed = await cli(['dlq', kept]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/dlq-000001 +pending +lost_reply_left_in_dlq +reserve lost_reply_left_in_dlq:reserve:2872d1b4… +1 +lost_reply/);
    expect(listed.stdout).toContain(`replay one: faultlab dlq ${kept} --replay dlq-000001`);

    const replayed = await cli(['dlq', kept, '--replay', 'dlq-000001', '--json']);
    expect(replayed.code).toBe(0);
    expect(JSON.parse(replayed.stdout)).toEqual({ dlqId: 'dlq-000001', status: 'succeeded', dlq: [{ dlqId: 'dlq-000001', status: 'replayed' }], ledger: 1, passed: true, violations: [] });

    // One effect across the two deliveries: one ledger row, and the replay observed that very receipt.
    const db = new Database(join(kept, 'tool.db'), { readonly: true });
    const rows = db.prepare('SELECT result FROM ledger').all() as Array<{ result: string }>;
    db.close();
    const events = new Database(join(kept, 'events.db'), { readonly: true });
    const last = JSON.parse((events.prepare('SELECT state FROM events ORDER BY seq DESC LIMIT 1').get() as { state: string }).state) as { status: string; observations: Record<string, unknown> };
    events.close();
    expect(rows).toHaveLength(1);
    expect([last.status, last.observations.reserve]).toEqual(['succeeded', JSON.parse(rows[0]!.result)]);

    const again = await cli(['dlq', kept, '--replay', 'dlq-000001']);
    expect([again.code, again.stderr.split('\n')[0]]).toEqual([2, 'faultlab dlq: --replay dlq-000001: the record is replayed; only a pending record may be replayed']);
  });

  it('two replays of one record at once: one replays it, the other is refused with exit 2 — never an internal error', async () => {
    const dir = tempFolder('dlq-race');
    const kept = join(dir, 'kept');
    expect((await cli(['run', keptScenario(dir), '--keep-db', kept, '--quiet'])).code).toBe(0);
    const both = await Promise.all([cli(['dlq', kept, '--replay', 'dlq-000001', '--json']), cli(['dlq', kept, '--replay', 'dlq-000001', '--json'])]);
    expect(both.map((r) => r.code).sort()).toEqual([0, 2]);
    const loser = both.find((r) => r.code === 2)!;
    expect(loser.stderr).toMatch(/^faultlab dlq: --replay dlq-000001: (.* is in use by another faultlab run|the record is replayed)/);
    expect(JSON.parse(both.find((r) => r.code === 0)!.stdout)).toMatchObject({ dlqId: 'dlq-000001', status: 'succeeded', ledger: 1, passed: true });
  });

  it("replays through a learner's file in its box: what it prints stays off the JSON, its process.exit fails the replay and leaves the record pending", async () => {
    const dir = tempFolder('dlq-runner');
    const kept = join(dir, 'kept');
    expect((await cli(['run', keptScenario(dir), '--keep-db', kept, '--quiet'])).code).toBe(0);
    const exits = join(dir, 'Exits.ts');
    writeFileSync(exits, "import { BaseRunner } from './BaseRunner.js';\nconsole.log('{\"forged\": true}');\nexport class LearnerRunner extends BaseRunner { step(s: any) { console.log('in step'); process.exit(0); return s; } }\n");
    const replayed = await cli(['dlq', kept, '--replay', 'dlq-000001', '--runner', exits, '--json']);
    expect(replayed.code).toBe(1);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ dlqId: 'dlq-000001', status: 'running', dlq: [{ dlqId: 'dlq-000001', status: 'pending' }], passed: false });
    expect(replayed.stderr).toContain('{"forged": true}\nin step\n');
    const broken = join(dir, 'Broken.ts');
    writeFileSync(broken, 'export class {\n');
    const refused = await cli(['dlq', kept, '--replay', 'dlq-000001', '--runner', broken]);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringMatching(/^faultlab dlq: --runner .*Broken\.ts: syntax error at .*Broken\.ts:1:14/)]);
    expect((await cli(['dlq', kept])).stdout).toMatch(/dlq-000001 +pending/);
  });

  it('says what to do with a folder that holds no kept run, and exits 2', async () => {
    const empty = tempFolder('dlq-empty');
    const result = await cli(['dlq', empty]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`no events.db in ${empty} (keep a run's databases with: faultlab run SCENARIO --keep-db ${empty})`);
  });
});
