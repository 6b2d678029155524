/**
 * The statement driver moves several connections one statement at a time. A statement that waits on another
 * session's lock is seen waiting in pg_stat_activity — not guessed from a timer — and stays in flight until its
 * blocker moves; so an interleaving is chosen, and the same choice gives the same outcomes every time.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DriverMisuseError, StatementDriver, type Outcome, type Session } from '../../src/postgres/driver.js';
import { noPostgres, testDatabase } from './database.js';

let url: string;
const open: pg.Client[] = [];

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  open.push(client);
  return client;
}

/** A driver over `names.length` fresh connections (and one more that watches), on a fresh `items` table. */
async function drive(...names: string[]): Promise<{ driver: StatementDriver; s: Record<string, Session>; admin: pg.Client }> {
  const admin = await connect();
  await admin.query('DROP TABLE IF EXISTS items; CREATE TABLE items (item_id text PRIMARY KEY, available int NOT NULL)');
  await admin.query("INSERT INTO items VALUES ('camera', 10)");
  const driver = new StatementDriver(await connect());
  const s: Record<string, Session> = {};
  for (const name of names) s[name] = await driver.attach(name, await connect());
  return { driver, s, admin };
}

const brief = (o: Outcome) => (o.state === 'done' ? `done ${o.command} ${o.rowCount}` : o.state === 'failed' ? `failed ${o.code}` : `waiting on ${o.blockedBy.join(',')}`);

describe.skipIf(noPostgres !== null)(`the statement driver${noPostgres ? ` (skipped: ${noPostgres})` : ''}`, () => {
  beforeAll(async () => {
    url = await testDatabase();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.end()));
  });

  it('returns a statement that takes no lock as done, with its rows', async () => {
    const { driver, s } = await drive('A');
    const read = await driver.step(s.A!, "SELECT available FROM items WHERE item_id = 'camera'");
    expect(read).toEqual({ state: 'done', command: 'SELECT', rowCount: 1, rows: [{ available: 10 }] });
    expect(driver.pending(s.A!)).toBe(false);
  });

  it("sees an UPDATE of a row another transaction holds waiting on it, and finishing once that one commits", async () => {
    const { driver, s, admin } = await drive('A', 'B');
    await driver.step(s.A!, 'BEGIN');
    await driver.step(s.B!, 'BEGIN');
    expect(brief(await driver.step(s.A!, "UPDATE items SET available = available - 1 WHERE item_id = 'camera'"))).toBe('done UPDATE 1');
    expect(await driver.step(s.B!, "UPDATE items SET available = available - 1 WHERE item_id = 'camera'")).toEqual({ state: 'waiting', blockedBy: ['A'] });
    expect(driver.pending(s.B!)).toBe(true);
    // Still waiting when looked at again: nothing moved.
    expect(await driver.settle(s.B!)).toEqual({ state: 'waiting', blockedBy: ['A'] });
    expect(brief(await driver.step(s.A!, 'COMMIT'))).toBe('done COMMIT null');
    expect(brief(await driver.settle(s.B!))).toBe('done UPDATE 1');
    await driver.step(s.B!, 'COMMIT');
    expect((await admin.query("SELECT available FROM items")).rows).toEqual([{ available: 8 }]);
  });

  it('brings every other session to rest before it sends a statement: one freed by a COMMIT has finished first', async () => {
    const { driver, s } = await drive('A', 'B');
    await driver.step(s.A!, 'BEGIN');
    await driver.step(s.A!, "UPDATE items SET available = 0 WHERE item_id = 'camera'");
    expect((await driver.step(s.B!, "UPDATE items SET available = available + 5 WHERE item_id = 'camera' RETURNING available")).state).toBe('waiting');
    await driver.step(s.A!, 'COMMIT');
    // B's UPDATE ran once A committed; before A's next statement the driver waited for it to end.
    const seen = await driver.step(s.A!, `SELECT state FROM pg_stat_activity WHERE pid = ${s.B!.pid}`);
    expect(seen.state === 'done' && seen.rows).toEqual([{ state: 'idle' }]);
    expect(await driver.settle(s.B!)).toEqual({ state: 'done', command: 'UPDATE', rowCount: 1, rows: [{ available: 5 }] });
  });

  it('returns a statement PostgreSQL refuses as failed with its SQLSTATE; the transaction then refuses everything', async () => {
    const { driver, s } = await drive('A');
    await driver.step(s.A!, 'BEGIN');
    const duplicate = await driver.step(s.A!, "INSERT INTO items VALUES ('camera', 1)");
    expect(duplicate.state === 'failed' && duplicate.code).toBe('23505'); // unique_violation
    expect(brief(await driver.step(s.A!, 'SELECT 1'))).toBe('failed 25P02'); // in_failed_sql_transaction
    expect(brief(await driver.step(s.A!, 'ROLLBACK'))).toBe('done ROLLBACK null');
  });

  it('shows SERIALIZABLE failing the second writer with 40001 once the first commits', async () => {
    const { driver, s } = await drive('A', 'B');
    for (const name of ['A', 'B']) {
      await driver.step(s[name]!, 'BEGIN ISOLATION LEVEL SERIALIZABLE');
      await driver.step(s[name]!, "SELECT available FROM items WHERE item_id = 'camera'");
    }
    await driver.step(s.A!, "UPDATE items SET available = 9 WHERE item_id = 'camera'");
    expect(brief(await driver.step(s.B!, "UPDATE items SET available = 9 WHERE item_id = 'camera'"))).toBe('waiting on A');
    await driver.step(s.A!, 'COMMIT');
    expect(brief(await driver.settle(s.B!))).toBe('failed 40001'); // could not serialize access due to concurrent update
    await driver.step(s.B!, 'ROLLBACK');
  });

  it('refuses a second statement on a session whose first is still in flight, and a session it does not drive', async () => {
    const { driver, s } = await drive('A', 'B');
    await driver.step(s.A!, 'BEGIN');
    await driver.step(s.A!, "UPDATE items SET available = 1 WHERE item_id = 'camera'");
    await driver.step(s.B!, "UPDATE items SET available = 2 WHERE item_id = 'camera'");
    await expect(driver.step(s.B!, 'SELECT 1')).rejects.toThrow(DriverMisuseError);
    await expect(driver.settle({ ...s.B!, name: 'C' })).rejects.toThrow(DriverMisuseError);
    await driver.step(s.A!, 'ROLLBACK');
    expect(brief(await driver.settle(s.B!))).toBe('done UPDATE 1');
  });

  it('gives the same outcomes for the same interleaving, every time', async () => {
    const once = async () => {
      const { driver, s } = await drive('A', 'B', 'C');
      const seen: string[] = [];
      const step = async (name: string, sql: string) => seen.push(`${name}: ${brief(await driver.step(s[name]!, sql))}`);
      const settle = async (name: string) => seen.push(`${name} settles: ${brief(await driver.settle(s[name]!))}`);
      // One waiter per lock at a time: when a COMMIT frees a row two sessions wait on, PostgreSQL wakes both
      // and lets them race for the new version (the first waiter drops its tuple lock on the way), so which
      // one waits on the other is the server's choice, not the caller's. A harness steps one waiter at a time.
      for (const name of ['A', 'B', 'C']) await step(name, 'BEGIN');
      for (const name of ['A', 'B']) await step(name, "UPDATE items SET available = available - 1 WHERE item_id = 'camera' AND available >= 1");
      await step('A', 'COMMIT');
      await settle('B');
      await step('C', "UPDATE items SET available = available - 1 WHERE item_id = 'camera' AND available >= 1");
      await step('B', 'ROLLBACK');
      await settle('C');
      await step('C', 'COMMIT');
      await Promise.all(open.splice(0).map((client) => client.end()));
      return seen;
    };
    const first = await once();
    expect(first).toEqual([
      'A: done BEGIN null',
      'B: done BEGIN null',
      'C: done BEGIN null',
      'A: done UPDATE 1',
      'B: waiting on A',
      'A: done COMMIT null',
      'B settles: done UPDATE 1', // it read the row again once A committed, and took the second camera
      'C: waiting on B',
      'B: done ROLLBACK null',
      'C settles: done UPDATE 1', // B's camera came back
      'C: done COMMIT null',
    ]);
    expect(await once()).toEqual(first);
    expect(await once()).toEqual(first);
  });
});
