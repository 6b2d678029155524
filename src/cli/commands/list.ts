/** `faultlab list`: one line per scenario — id, title, fault, expected status. */
import { parseArgs } from 'node:util';
import { describeFaults } from '../../faults/types.js';
import { loadAll } from '../../scenario/load.js';
import { pad, padStart } from '../../render/format.js';
import { sharedParse } from '../options.js';
import { chooseStyle, EXIT, type Io } from '../io.js';

export const LIST_HELP = `faultlab list [SCENARIO…] [--json] [--no-color]
  One line per scenario: id, title, faults, expected status.`;

export async function listCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: sharedParse('json', 'no-color') });
  const { c } = chooseStyle(io, { noColor: values['no-color'], json: values.json });
  const loaded = loadAll(positionals, { cwd: io.cwd });
  const rows = loaded.map((one) => {
    if (one.type === 'runner') {
      const s = one.scenario;
      return { order: s.order, id: s.id, title: s.title, fault: describeFaults(s.faults), status: s.expect.status ?? '-' };
    }
    // A lab has no faults and no terminal status: the column says what kind of lab it is.
    return { order: undefined, id: one.id, title: one.title, fault: `${one.kind}: ${String((one.value as { experiment?: unknown }).experiment)}`, status: '-' };
  });
  if (values.json) {
    io.stdout.write(JSON.stringify(rows, null, 2) + '\n');
    return EXIT.ok;
  }
  const width = (texts: string[]) => Math.max(...texts.map((t) => t.length)) + 2;
  const [idW, titleW, faultW] = [width(['id', ...rows.map((r) => r.id)]), width(['title', ...rows.map((r) => r.title)]), width(['faults', ...rows.map((r) => r.fault)])];
  io.stdout.write(c.bold(`${padStart('#', 3)}  ${pad('id', idW)}${pad('title', titleW)}${pad('faults', faultW)}expected status`) + '\n');
  for (const r of rows) {
    io.stdout.write(`${padStart(r.order !== undefined ? String(r.order) : '', 3)}  ${pad(r.id, idW)}${c.dim(pad(r.title, titleW))}${pad(r.fault, faultW)}${r.status}\n`);
  }
  return EXIT.ok;
}
