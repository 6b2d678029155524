/**
 * The races on PostgreSQL (scenarios/postgres, kind postgres_race) where no server is given: `run` refuses them
 * saying how to run them, `explore` says their own run already plays every interleaving, `list` names each one's
 * protocol. (Their runs are in test/labs/races/races.pg.test.ts.)
 */
import { expect, it } from 'vitest';
import { cli } from '../support.js';

const FILE = 'scenarios/postgres/lost_update_read_then_write.yaml';

it('refuses a race on SQLite, naming --db postgres, before anything runs (exit 2)', async () => {
  const { code, stdout, stderr } = await cli(['run', FILE]);
  expect([code, stdout]).toEqual([2, '']);
  expect(stderr).toContain('lost_update_read_then_write is a race on PostgreSQL: run it with --db postgres');
  const zh = await cli(['run', FILE, '--lang', 'zh']);
  expect(zh.stderr).toContain('lost_update_read_then_write 是 PostgreSQL 上的竞争');
});

it('sends explore back to run: a race plays every interleaving of its own', async () => {
  const { code, stderr } = await cli(['explore', 'lost_update_read_then_write']);
  expect(code).toBe(2);
  expect(stderr).toContain(`whose own run already plays every interleaving of its two sessions: faultlab run --db postgres ${FILE}`);
});

it('lists each race with its protocol', async () => {
  const { code, stdout } = await cli(['list', 'scenarios/postgres', '--no-color']);
  expect(code).toBe(0);
  expect(stdout).toMatch(/lost_update_read_then_write +The lost update: .* +postgres_race: read_then_write/);
  expect(stdout.split('\n').filter((line) => line.includes('postgres_race: '))).toHaveLength(11);
});
