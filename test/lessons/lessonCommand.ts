/**
 * Turning a lesson's command into faultlab's argv, running it in-process through `main(argv, io)` with
 * colour off, and checking a lesson's claims against what it printed. Only faultlab commands are accepted:
 * a lesson may show nothing the test cannot run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import type { Claim } from './lessonDoc.js';

export const ROOT = join(import.meta.dirname, '..', '..');

/** The forms a lesson may use; all of them reach the same `main`. */
export const ACCEPTED_FORMS = [
  'faultlab ARGS',
  'npx faultlab ARGS',
  'node bin/faultlab.cjs ARGS',
  'node bin/faultlab.js ARGS',
  'npm start [-- ARGS]',
  'npm run grade [-- ARGS]',
  'npm run SCRIPT [-- ARGS] (when SCRIPT runs faultlab)',
];

export type Parsed = { ok: true; argv: string[] } | { ok: false; reason: string };

/** Split a command line the way a POSIX shell would for the simple cases lessons use; refuse the rest. */
export function shellWords(line: string): { ok: true; words: string[] } | { ok: false; reason: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i];
      else if (ch === '$' || ch === '`') return { ok: false, reason: `shell expansion (${ch}) is not allowed in a lesson command` };
      else word += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if ('|&;<>()$`*?#'.includes(ch) && !(ch === '#' && inWord)) {
      return { ok: false, reason: `the shell character ${JSON.stringify(ch)} is not allowed: a lesson command is one faultlab invocation, nothing else` };
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote !== null) return { ok: false, reason: 'an unclosed quote' };
  if (inWord) words.push(word);
  return { ok: true, words };
}

function scripts(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  return pkg.scripts ?? {};
}

/** `faultlab …`, `npx faultlab …`, `node bin/faultlab.cjs …` (or .js): the words after the program. */
function directArgs(words: string[]): string[] | null {
  if (words[0] === 'faultlab') return words.slice(1);
  if (words[0] === 'npx' && words[1] === 'faultlab') return words.slice(2);
  if (words[0] === 'node' && /^(\.\/)?bin\/faultlab\.c?js$/.test(words[1] ?? '')) return words.slice(2);
  return null;
}

/** What `npm run NAME -- ARGS` would run, when NAME is a faultlab script. */
function npmScript(name: string, extra: string[]): Parsed {
  const script = scripts()[name];
  if (script !== undefined) {
    const split = shellWords(script);
    const args = split.ok ? directArgs(split.words) : null;
    if (args !== null) return { ok: true, argv: [...args, ...extra] };
  }
  if (name === 'grade') return { ok: true, argv: ['grade', ...extra] };
  return { ok: false, reason: `npm script ${JSON.stringify(name)} does not run faultlab${script === undefined ? ' (no such script)' : `: ${script}`}` };
}

export function toArgv(command: string): Parsed {
  const split = shellWords(command);
  if (!split.ok) return split;
  const words = split.words;
  const direct = directArgs(words);
  if (direct !== null) return { ok: true, argv: direct };
  if (words[0] === 'npm') {
    const [, verb, ...rest] = words;
    const dashes = rest.indexOf('--');
    const before = dashes === -1 ? rest : rest.slice(0, dashes);
    const extra = dashes === -1 ? [] : rest.slice(dashes + 1);
    if (verb === 'start' && before.length === 0) return npmScript('start', extra);
    if ((verb === 'run' || verb === 'run-script') && before.length === 1) return npmScript(before[0]!, extra);
  }
  return { ok: false, reason: `not a faultlab command; a lesson may only show ${ACCEPTED_FORMS.join(', ')}` };
}

export interface Outcome {
  exit: number;
  stdout: string;
  stderr: string;
  /** stdout then stderr: what a reader sees in the terminal. */
  output: string;
}

const cache = new Map<string, Promise<Outcome>>();

/** Run faultlab in-process with colour off, as a learner would see it piped or with --no-color. */
export function runFaultlab(argv: string[]): Promise<Outcome> {
  const key = JSON.stringify(argv);
  let outcome = cache.get(key);
  if (outcome === undefined) {
    outcome = (async () => {
      let stdout = '';
      let stderr = '';
      const io = {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
        env: { NO_COLOR: '1' },
        isTTY: false,
        cwd: ROOT,
      };
      let exit: number;
      try {
        exit = await main(argv, io);
      } catch (error) {
        stderr += `faultlab threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`;
        exit = -1;
      }
      return { exit, stdout, stderr, output: stdout + stderr };
    })();
    cache.set(key, outcome);
  }
  return outcome;
}

const CJK = '[\\u2e80-\\u9fff\\uac00-\\ud7a3\\uf900-\\ufaff\\uff00-\\uff60]';
const CJK_BREAK = new RegExp(`(${CJK}) (?=${CJK})`, 'g');
/** Chinese punctuation (、。「」 and the full-width ，：；（）…): Chinese text never puts a space next to it. */
const FULL_WIDTH_PUNCTUATION = '[\\u3000-\\u303f\\uff00-\\uff0f\\uff1a-\\uff20\\uff3b-\\uff40\\uff5b-\\uff60]';
const PUNCTUATION_BREAK = new RegExp(` (?=${FULL_WIDTH_PUNCTUATION})|(?<=${FULL_WIDTH_PUNCTUATION}) `, 'g');

/**
 * Text as a sentence, whatever width it was wrapped to: every run of white space (a line break and the
 * indent under it, the padding of a column) is one space, and a break between two CJK characters — which
 * have no spaces to break at — is none; nor is one beside Chinese punctuation (`×1，available_after` may
 * break after its comma, `+1（res_3192e4）` before its bracket). The trace wraps to the reader's terminal, so a
 * lesson's claim or excerpt is held to what the program says, not to where one width happened to cut it.
 */
export function unwrapped(text: string): string {
  return text.replace(/\s+/g, ' ').replace(CJK_BREAK, '$1').replace(PUNCTUATION_BREAK, '').trim();
}

/** Every claim that does not hold, as a sentence naming the claim, what was expected and what came out. */
export function failedClaims(claims: readonly Claim[], outcome: Outcome): string[] {
  const problems: string[] = [];
  const said = unwrapped(outcome.output);
  for (const claim of claims) {
    if (claim.kind === 'exit' && outcome.exit !== claim.code) {
      problems.push(`line ${claim.line}: expected exit ${claim.code}, got ${outcome.exit}`);
    } else if (claim.kind === 'output' && !said.includes(unwrapped(claim.text))) {
      problems.push(`line ${claim.line}: the output does not contain ${JSON.stringify(claim.text)}${nearest(claim.text, outcome.output)}`);
    } else if (claim.kind === 'no-output' && said.includes(unwrapped(claim.text))) {
      problems.push(`line ${claim.line}: the output contains ${JSON.stringify(claim.text)}, which the lesson says it does not`);
    }
  }
  return problems;
}

/** Lines of an excerpt must appear in `haystack` in this order (both unwrapped). Returns the first that does not. */
export function missingInOrder(lines: ReadonlyArray<{ text: string; line: number }>, haystack: string): { text: string; line: number } | null {
  const text = unwrapped(haystack);
  let from = 0;
  for (const wanted of lines) {
    const needle = unwrapped(wanted.text);
    const at = text.indexOf(needle, from);
    if (at === -1) return wanted;
    from = at + needle.length;
  }
  return null;
}

/** A hint for a drifted claim: the output line that shares the longest prefix with it. */
function nearest(claim: string, output: string): string {
  let best = '';
  let bestLength = 0;
  for (const line of output.split('\n')) {
    const text = line.trim();
    let i = 0;
    const start = text.indexOf(claim.slice(0, 12));
    if (start === -1) continue;
    while (i < claim.length && text[start + i] === claim[i]) i++;
    if (i > bestLength) {
      bestLength = i;
      best = text;
    }
  }
  return best === '' ? '' : `\n    closest line in the output: ${JSON.stringify(best)}`;
}
