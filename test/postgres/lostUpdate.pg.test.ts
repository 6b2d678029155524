/**
 * The lost update at READ COMMITTED, measured — the seed of lesson 13. Four connections reserve one camera
 * each, at the same moment, in an interleaving chosen statement by statement (the statement driver): all four
 * read the stock first, then each writes. Written as read-then-`SET available = <value read> - 1`, each write
 * overwrites the others: four reservations commit and the stock goes down by one. Written as a conditional
 * `SET available = available - 1 WHERE available >= 1`, each write waits for the one before it and then
 * re-reads the row it updates: nothing is lost, and when the stock runs out a write updates no row — the
 * refusal — instead of selling what is not there.
 */
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StatementDriver, type Outcome, type Session } from '../../src/postgres/driver.js';
import { noPostgres, testDatabase } from './database.js';

let url: string;
const open: pg.Client[] = [];

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  open.push(client);
  return client;
}

const brief = (o: Outcome) => (o.state === 'done' ? `${o.command} ${o.rowCount}` : o.state === 'failed' ? `failed ${o.code}` : `waits on ${o.blockedBy.join(',')}`);

interface Race {
  /** What each statement did, in the order the harness moved them. */
  steps: string[];
  /** Reservations whose transaction committed having updated the row. */
  committed: number;
  /** The stock at the end, read by a fresh connection. */
  stock: number;
}

/**
 * Four sessions at READ COMMITTED: each BEGINs and reads the camera's stock; then, in turn, each writes
 * (`write(read)`: its UPDATE, given the value it read) while the one before it has not committed yet — so a
 * write meets the previous one's row lock and waits — and then the one before commits; the last commits at
 * the end. (A write after one that updated no row holds no lock to meet: it is done at once.)
 */
async function race(start: number, write: (read: number) => string): Promise<Race> {
  const admin = await connect();
  await admin.query('DROP TABLE IF EXISTS items; CREATE TABLE items (item_id text PRIMARY KEY, available int NOT NULL)');
  await admin.query("INSERT INTO items VALUES ('camera', $1)", [start]);
  const driver = new StatementDriver(await connect());
  const sessions: Session[] = [];
  for (const name of ['W1', 'W2', 'W3', 'W4']) sessions.push(await driver.attach(name, await connect()));
  const steps: string[] = [];
  const step = async (s: Session, sql: string) => {
    const outcome = await driver.step(s, sql);
    steps.push(`${s.name} ${sql.split(' ')[0]}: ${brief(outcome)}`);
    return outcome;
  };
  const reads = new Map<Session, number>();
  for (const s of sessions) {
    await step(s, 'BEGIN ISOLATION LEVEL READ COMMITTED');
    const read = await step(s, "SELECT available FROM items WHERE item_id = 'camera'");
    reads.set(s, read.state === 'done' ? Number(read.rows[0]!.available) : NaN);
  }
  let committed = 0;
  const updated = new Map<Session, Outcome>();
  for (const [i, s] of sessions.entries()) {
    updated.set(s, await step(s, write(reads.get(s)!)));
    const before = sessions[i - 1];
    if (before === undefined) continue;
    await step(before, 'COMMIT');
    if (updated.get(s)!.state === 'waiting') {
      const settled = await driver.settle(s);
      steps.push(`${s.name} settles: ${brief(settled)}`);
      updated.set(s, settled);
    }
    if (brief(updated.get(before)!) === 'UPDATE 1') committed += 1;
  }
  const last = sessions[sessions.length - 1]!;
  await step(last, 'COMMIT');
  if (brief(updated.get(last)!) === 'UPDATE 1') committed += 1;
  const stock = Number((await admin.query("SELECT available FROM items WHERE item_id = 'camera'")).rows[0].available);
  await Promise.all(open.splice(0).map((client) => client.end()));
  return { steps, committed, stock };
}

describe.skipIf(noPostgres !== null)(`four connections reserve one camera each at READ COMMITTED${noPostgres ? ` (skipped: ${noPostgres})` : ''}`, () => {
  beforeAll(async () => {
    url = await testDatabase();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.end()));
  });

  it('read-then-SET available = <value read> - 1 loses three of the four updates', async () => {
    const { steps, committed, stock } = await race(10, (read) => `UPDATE items SET available = ${read - 1} WHERE item_id = 'camera'`);
    expect(steps.filter((s) => s.includes('SELECT'))).toEqual(['W1 SELECT: SELECT 1', 'W2 SELECT: SELECT 1', 'W3 SELECT: SELECT 1', 'W4 SELECT: SELECT 1']);
    expect(steps.filter((s) => s.includes('UPDATE') || s.includes('settles'))).toEqual([
      'W1 UPDATE: UPDATE 1',
      'W2 UPDATE: waits on W1',
      'W2 settles: UPDATE 1',
      'W3 UPDATE: waits on W2',
      'W3 settles: UPDATE 1',
      'W4 UPDATE: waits on W3',
      'W4 settles: UPDATE 1',
    ]);
    expect(committed).toBe(4);
    expect(stock).toBe(9); // every write set 10 - 1: four reservations, one camera gone
    expect(committed - (10 - stock)).toBe(3); // lost updates
  });

  it('a conditional UPDATE … SET available = available - 1 WHERE available >= 1 loses none', async () => {
    const { steps, committed, stock } = await race(10, () => "UPDATE items SET available = available - 1 WHERE item_id = 'camera' AND available >= 1");
    expect(steps.filter((s) => s.includes('waits on'))).toEqual(['W2 UPDATE: waits on W1', 'W3 UPDATE: waits on W2', 'W4 UPDATE: waits on W3']);
    expect(committed).toBe(4);
    expect(stock).toBe(6);
    expect(committed - (10 - stock)).toBe(0);
  });

  it('with two cameras left, the conditional UPDATE refuses the third and fourth (zero rows) instead of overselling', async () => {
    const conditional = await race(2, () => "UPDATE items SET available = available - 1 WHERE item_id = 'camera' AND available >= 1");
    expect(conditional.steps.filter((s) => s.includes('UPDATE') && !s.includes('waits'))).toEqual(['W1 UPDATE: UPDATE 1', 'W2 settles: UPDATE 1', 'W3 settles: UPDATE 0', 'W4 UPDATE: UPDATE 0']);
    expect([conditional.committed, conditional.stock]).toEqual([2, 0]);
    // Read-then-write, from the same two: four "reservations", and the stock still says one is left.
    const blind = await race(2, (read) => `UPDATE items SET available = ${read - 1} WHERE item_id = 'camera' AND ${read} >= 1`);
    expect([blind.committed, blind.stock]).toEqual([4, 1]);
  });
});
