/**
 * A tool's refusal read back out of its text. A ContractError's text is the tool's English (`STALE_VERSION:
 * expected version 0, found 1`), built from one template of src/inventory/refusals.ts: it is what a learner's
 * step catches and stores, so it stays text all the way to the renderers. Here, at the edge, the template is read
 * back out of the text — its code, which template, the values of its placeholders — for toolText (t.ts) to word
 * in the language asked for, the code and the values unchanged. Text that holds no refusal, or a refusal whose
 * template this build does not know (a tool's newer or older text), is left as it is.
 */
import { REFUSALS, type RefusalKey } from '../../inventory/refusals.js';

/** `CODE: ` — where a refusal's text starts (the codes of src/inventory/errors.ts are upper case with `_`). */
const CODE = /\b([A-Z][A-Z_]{2,}[A-Z]): /g;

interface Compiled {
  key: RefusalKey;
  names: string[];
  pattern: RegExp;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Each template as a pattern anchored where a refusal's text starts: its words literally, each placeholder any
 * text up to the next words (a last placeholder: up to the end of its line — a refusal ends the text that holds
 * it: `tool_error: …`, a saved label, an error's message). Longest first,
 * so that `unknown tool {tool}: this scenario has no remote service` wins over `unknown tool {tool}`.
 */
const TEMPLATES: readonly Compiled[] = (Object.keys(REFUSALS) as RefusalKey[])
  .map((key) => {
    const parts = REFUSALS[key].split(/\{([a-zA-Z]+)\}/);
    const names: string[] = [];
    let source = '^';
    parts.forEach((part, i) => {
      if (i % 2 === 0) source += escape(part);
      else {
        names.push(part);
        source += i === parts.length - 2 && parts[i + 1] === '' ? '(.+?)(?=$|\\n)' : '(.+?)';
      }
    });
    return { key, names, pattern: new RegExp(source, 's'), literal: REFUSALS[key].replace(/\{[a-zA-Z]+\}/g, '').length };
  })
  .sort((a, b) => b.literal - a.literal);

/** A refusal found in a text: where its words are, which template, and the values of its placeholders. */
export interface FoundRefusal {
  start: number;
  end: number;
  key: RefusalKey;
  params: Record<string, string>;
}

/** The refusals in `text`, in order (t.ts's toolText words them). */
export function findRefusals(text: string): FoundRefusal[] {
  const found: FoundRefusal[] = [];
  if (!text.includes(': ')) return found;
  let from = 0;
  for (const start of text.matchAll(CODE)) {
    const at = start.index + start[0].length;
    if (at < from) continue;
    const rest = text.slice(at);
    for (const { key, names, pattern } of TEMPLATES) {
      const m = pattern.exec(rest);
      if (m === null) continue;
      found.push({ start: at, end: at + m[0].length, key, params: Object.fromEntries(names.map((name, i) => [name, m[i + 1]!])) });
      from = at + m[0].length;
      break;
    }
  }
  return found;
}
