/** `faultlab list`: one line per scenario — id, title, fault, expected status. */
import { parseArgs } from 'node:util';
import { t, word, type Lang } from '../../render/words/index.js';
import { describeFaults } from '../../faults/types.js';
import { loadAll } from '../../scenario/load.js';
import { titleOf } from '../../scenario/words.js';
import { displayWidth, pad, padStart } from '../../render/format.js';
import { sharedHelp, sharedParse } from '../options.js';
import { chooseStyle, EXIT, type Io } from '../io.js';

/** `faultlab list --help`, in a language. */
export function listHelp(lang: Lang): string {
  return [t(lang, 'help.list.head'), sharedHelp(lang, 'lang')].join('\n');
}

export async function listCommand(argv: string[], io: Io, lang: Lang): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: sharedParse('json', 'no-color') });
  const { c } = await chooseStyle(io, { noColor: values['no-color'], json: values.json });
  const loaded = loadAll(positionals, { cwd: io.cwd });
  // --json is the same document in every language: the title is the file's English `title:`, the fault line
  // the catalogue's English, like an id. The table shows the scenario's Chinese words when it has them.
  const shownIn: Lang = values.json ? 'en' : lang;
  const rows = loaded.map((one) => {
    if (one.type === 'runner') {
      const s = one.scenario;
      const fault = word(shownIn, describeFaults(s.faults));
      return { order: s.order, id: s.id, title: titleOf(s, shownIn), fault, status: s.expect.status ?? '-' };
    }
    // A lab has no faults and no terminal status: the column says what kind of lab it is (a race: its protocol).
    return { order: undefined, id: one.id, title: titleOf(one, shownIn), fault: `${one.kind}: ${String((one.value as { experiment?: unknown; protocol?: unknown }).experiment ?? (one.value as { protocol?: unknown }).protocol)}`, status: '-' };
  });
  if (values.json) {
    io.stdout.write(JSON.stringify(rows, null, 2) + '\n');
    return EXIT.ok;
  }
  const head = { id: t(lang, 'cli.list.head.id'), title: t(lang, 'cli.list.head.title'), faults: t(lang, 'cli.list.head.faults'), status: t(lang, 'cli.list.head.status') };
  const width = (texts: string[]) => Math.max(...texts.map(displayWidth)) + 2;
  const [idW, titleW, faultW] = [width([head.id, ...rows.map((r) => r.id)]), width([head.title, ...rows.map((r) => r.title)]), width([head.faults, ...rows.map((r) => r.fault)])];
  io.stdout.write(c.bold(`${padStart('#', 3)}  ${pad(head.id, idW)}${pad(head.title, titleW)}${pad(head.faults, faultW)}${head.status}`) + '\n');
  for (const r of rows) {
    io.stdout.write(`${padStart(r.order !== undefined ? String(r.order) : '', 3)}  ${pad(r.id, idW)}${c.dim(pad(r.title, titleW))}${pad(r.fault, faultW)}${r.status}\n`);
  }
  return EXIT.ok;
}
