/**
 * The quick path's YAML parse (js-yaml), with what it made of the shipped scenarios kept at build time.
 *
 * Parsing is a pure function of the text, and cold js-yaml costs about 60 ms for the 17 scenarios of
 * `faultlab run` — a quarter of its start-up. So `npm run build` (scripts/parse-scenarios.mjs) parses every
 * YAML file under scenarios/ once and keeps each text with its value, as JSON, in dist/generated/. A text that is
 * exactly one kept takes its value from there; any other text (an edited scenario, a learner's own) is
 * parsed here as usual. Only the parse is skipped: measuring, the schema and the semantic checks run on the
 * value either way, and a file that fails them goes to the precise path with its lines and columns.
 */
import { load as loadYaml } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/paths.js';
import { MAX_ALIASES, MAX_DEPTH } from './limits.js';

/** js-yaml refuses past these while it parses, before any alias is expanded. */
const QUICK_LIMITS = { maxAliases: MAX_ALIASES, maxDepth: MAX_DEPTH };

/** Where the build keeps the parsed scenarios: `[text, JSON of its value][]`. */
export const PARSED_SCENARIOS_PATH = join(PACKAGE_ROOT, 'dist', 'generated', 'scenarios.parsed.json');

/** js-yaml on its own: what the build keeps, and what any text not kept gets. Throws as js-yaml does. */
export function parseYaml(text: string): unknown {
  return loadYaml(text, QUICK_LIMITS);
}

let kept: Map<string, string> | undefined;

function keptValues(): Map<string, string> {
  if (kept === undefined) {
    try {
      kept = new Map(JSON.parse(readFileSync(PARSED_SCENARIOS_PATH, 'utf8')) as [string, string][]);
    } catch {
      kept = new Map(); // not built (tests from src/ on a fresh clone): everything is parsed
    }
  }
  return kept;
}

/** The value of a YAML text: kept at build time if the text is exactly one that was parsed, else parsed now. */
export function quickParse(text: string): unknown {
  const json = keptValues().get(text);
  // A fresh copy every time: the caller owns what it gets, as it would from js-yaml.
  return json !== undefined ? JSON.parse(json) : parseYaml(text);
}
