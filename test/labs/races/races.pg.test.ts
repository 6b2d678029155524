/**
 * Lesson 13's races on PostgreSQL: every scenario of scenarios/postgres holds its figures; the lost update is
 * shown as it happens (both read 1, both write 0, both commit); the explorer finds an interleaving that breaks
 * each broken form and none in its fix, with the same tallies every time; the same file gives the same text; a
 * schedule that names a waiting session is refused at its turn; `faultlab run` runs them on a server and refuses
 * them on SQLite.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENARIOS_DIR } from '../../../src/core/paths.js';
import { exploreAll } from '../../../src/labs/races/explore.js';
import { Stage } from '../../../src/labs/races/play.js';
import { PROTOCOLS, type ProtocolName } from '../../../src/labs/races/protocols.js';
import { renderRaceRun } from '../../../src/labs/races/renderRace.js';
import { runRace } from '../../../src/labs/races/runRace.js';
import { makeTables, type Tables } from '../../../src/labs/races/tables.js';
import type { RaceScenario } from '../../../src/labs/races/types.js';
import { ScenarioInputError } from '../../../src/labs/ScenarioInputError.js';
import { PLAIN } from '../../../src/render/style.js';
import { loadAll } from '../../../src/scenario/load.js';
import { cli } from '../../support.js';
import { noPostgres, testDatabase } from '../../postgres/database.js';
import { runSchemas } from '../../postgres/testDatabases.js';

const DIR = join(SCENARIOS_DIR, 'postgres');
const scenario = (id: string): RaceScenario => {
  const [one] = loadAll([join(DIR, `${id}.yaml`)]);
  if (one?.type !== 'other') throw new Error(`${id} is not a race`);
  return one.value as RaceScenario;
};

describe.skipIf(noPostgres !== null)(`the races on PostgreSQL${noPostgres !== null ? ` (skipped: ${noPostgres})` : ''}`, () => {
  let url: string;
  beforeAll(async () => {
    url = await testDatabase();
  });

  it('runs every scenario of scenarios/postgres with its figures, and leaves no schema behind', async () => {
    const loaded = loadAll([DIR]);
    expect(loaded.length).toBe(11);
    const failed: string[] = [];
    for (const one of loaded) {
      if (one.type !== 'other') throw new Error(`${one.file} is not a race`);
      const run = await runRace(one.value as RaceScenario, url);
      for (const check of run.checks) if (!check.passed) failed.push(`${run.id} ${check.id}: ${JSON.stringify(check.actual)}`);
    }
    expect(failed).toEqual([]);
    expect(await runSchemas(url)).toEqual([]);
  }, 120_000);

  it('shows the lost update: both read 1, B waits on A, both write 0 and commit — stock 0, two reservations', async () => {
    const run = await runRace(scenario('lost_update_read_then_write'), url);
    const lines = run.events.map((e) =>
      e.type === 'answer' ? `${e.session} answered ${e.answer.kind}` : `${e.session} ${e.type === 'resumed' ? 'goes on' : e.sql.split(' ')[0]}: ${e.outcome.state === 'waiting' ? `waits on ${e.outcome.blockedBy}` : e.outcome.state === 'done' ? (e.outcome.rows[0]?.available ?? e.outcome.rowCount ?? '') : e.outcome.code}`,
    );
    expect(lines).toEqual([
      'A BEGIN: ',
      'A SELECT: 1',
      'B BEGIN: ',
      'B SELECT: 1',
      'A UPDATE: 1',
      'B UPDATE: waits on A',
      'A INSERT: 1',
      'A COMMIT: ',
      'A answered reserved',
      'B goes on: 1',
      'B INSERT: 1',
      'B COMMIT: ',
      'B answered reserved',
    ]);
    expect(run.events.filter((e) => e.type === 'statement' && e.sql.startsWith('UPDATE')).map((e) => (e as { sql: string }).sql)).toEqual([
      "UPDATE items SET available = 0 WHERE item_id = 'camera'",
      "UPDATE items SET available = 0 WHERE item_id = 'camera'",
    ]);
    expect([run.final.stock, run.final.reservations]).toEqual([0, ['res-A', 'res-B']]);
    expect(run.broke.map((v) => v.code)).toEqual(['lost_update', 'oversold']);
  }, 60_000);

  describe('the explorer, over every interleaving of two sessions', () => {
    let tables: Tables;
    let stage: Stage;
    beforeAll(async () => {
      tables = await makeTables(url);
      stage = await Stage.open(tables);
    });
    afterAll(async () => {
      await stage?.close();
      await tables?.drop();
    });
    const explore = async (name: ProtocolName) => {
      const protocol = PROTOCOLS[name];
      const found = await exploreAll(stage, protocol, { stock: protocol.family === 'ledger' ? 5 : 1, tasks: 3 });
      return { interleavings: found.interleavings, broken: found.broken, first: found.first?.schedule.join(' ') ?? null, broke: found.first?.violations.map((v) => v.code) ?? [] };
    };

    /** Each fix, and the broken forms of it the explorer must catch (measured here: the same every run). */
    it.each([
      ['conditional_update', { interleavings: 6, broken: 0 }, [['read_then_write', 24, 22, ['lost_update', 'oversold']], ['decrement_unchecked', 24, 22, ['oversold']]]],
      ['select_for_update', { interleavings: 8, broken: 0 }, [['read_then_write', 24, 22, ['lost_update', 'oversold']]]],
      ['serializable_retry', { interleavings: 24, broken: 0 }, [['serializable_no_retry', 24, 22, ['unanswered']]]],
      ['ledger_on_conflict', { interleavings: 8, broken: 0 }, [['ledger_bare_insert', 8, 8, ['wrong_answer']]]],
      ['claim_skip_locked', { interleavings: 20, broken: 0 }, [['claim_read_then_update', 14, 12, ['double_claim']]]],
    ] as const)('finds no broken interleaving in %s, and one in each of its broken forms', async (fix, holds, mutants) => {
      expect(await explore(fix)).toMatchObject(holds);
      expect(PROTOCOLS[fix].broken).toBe(false);
      for (const [mutant, interleavings, broken, broke] of mutants) {
        expect(PROTOCOLS[mutant].broken).toBe(true);
        const found = await explore(mutant);
        expect({ mutant, ...found }).toMatchObject({ mutant, interleavings, broken, broke });
      }
    }, 60_000);

    it('walks the interleavings in the same order every time: the same tally and the same first broken one', async () => {
      const twice = [await explore('read_then_write'), await explore('read_then_write')];
      expect(twice[1]).toEqual(twice[0]);
      expect(twice[0]!.first).toBe('A A A B A B B B');
    }, 60_000);
  });

  it('gives the same text for the same file, every time', async () => {
    const text = async () => renderRaceRun(await runRace(scenario('fix_serializable_retry'), url), PLAIN, { lang: 'en' });
    const first = await text();
    expect(await text()).toBe(first);
    expect(first.replace(/\s+/g, ' ')).toContain("B's UPDATE, which waited, goes on → refused, 40001: serialization failure");
  }, 60_000);

  it("fails a fix's checks when its protocol is put back to the broken form (lesson 13's Try it)", async () => {
    const run = await runRace({ ...scenario('fix_conditional_update'), protocol: 'read_then_write' }, url);
    expect(run.passed).toBe(false);
    expect(run.checks.filter((c) => !c.passed).map((c) => [c.id, c.actual])).toEqual([
      ['answers', { A: 'reserved res-A', B: 'reserved res-B' }],
      ['reservations', 2], // the stock says 0 all the same
      ['broken_interleavings', 22],
      ['broken_forms', undefined],
    ]);
  }, 60_000);

  it('refuses a schedule that names a waiting session, at its turn', async () => {
    const bad = { ...scenario('lost_update_read_then_write'), schedule: ['A', 'B', 'A', 'B', 'B'] as Array<'A' | 'B'> };
    const error = await runRace(bad, url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScenarioInputError);
    expect((error as ScenarioInputError).path).toEqual(['schedule', 4]);
  }, 60_000);

  it('runs through faultlab run --db URL, in English and Chinese, and is refused on SQLite', async () => {
    const file = 'scenarios/postgres/lost_update_read_then_write.yaml';
    const en = await cli(['run', '--db', url, file, '--no-color']);
    expect([en.code, en.stderr]).toEqual([0, '']);
    expect(en.stdout).toContain('B is answered: reserved res-B');
    expect(en.stdout).toContain('at the end: stock 0 · reservations: res-A, res-B');
    const zh = await cli(['run', '--db', url, file, '--no-color', '--lang', 'zh']);
    expect(zh.code).toBe(0);
    expect(zh.stdout).toContain('结束时：库存 0 · 预留：res-A, res-B');
    const refused = await cli(['run', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('lost_update_read_then_write is a race on PostgreSQL: run it with --db postgres');
  }, 120_000);
});
