import { afterAll, beforeAll, it } from 'vitest';
import { testDatabase } from '../../postgres/database.js';
import { makeTables, type Tables } from '../../../src/labs/races/tables.js';
import { Stage } from '../../../src/labs/races/play.js';
import { exploreAll } from '../../../src/labs/races/explore.js';
import { PROTOCOLS } from '../../../src/labs/races/protocols.js';
import { answerText } from '../../../src/labs/races/invariants.js';

let tables: Tables;
let stage: Stage;
beforeAll(async () => {
  tables = await makeTables(await testDatabase());
  stage = await Stage.open(tables);
});
afterAll(async () => {
  await stage.close();
  await tables.drop();
});

it('probe', async () => {
  for (const [name, protocol] of Object.entries(PROTOCOLS)) {
    const setup = { stock: protocol.family === 'ledger' ? 5 : 1, tasks: 3 };
    const t0 = performance.now();
    const ex = await exploreAll(stage, protocol, setup);
    const ms = performance.now() - t0;
    const p = await stage.play(protocol, setup, ex.first?.schedule ?? []);
    console.log(name, JSON.stringify(ex), Math.round(ms), 'ms');
    for (const e of p.events) console.log('   ', e.session, e.type === 'statement' ? e.sql : e.type, e.type === 'answer' ? answerText(e.answer) : JSON.stringify(e.outcome).slice(0, 100));
    console.log('   final', JSON.stringify(p.final));
  }
}, 300_000);
