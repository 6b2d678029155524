/**
 * A parsed YAML file that can still say where each value came from: the bridge between a schema error's
 * JSON path and the `file:line:col` a human needs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Document, Node } from 'yaml';
import { message, type Message, type Said } from '../core/message.js';
import type { ScenarioCode } from './codes.js';
import { MAX_ALIASES, MAX_DEPTH } from './limits.js';
import type { ScenarioProblem } from './ScenarioError.js';

/**
 * yaml's errors by code: its own words replaced where they name its API rather than the file's problem
 * (a second document); the common ones said in the user's language, yaml's English message kept inside.
 */
const SYNTAX_MESSAGES: Partial<Record<string, ScenarioCode>> = {
  MULTIPLE_DOCS: 'scenario.yaml.multipleDocs',
  DUPLICATE_KEY: 'scenario.yaml.duplicateKey',
  BAD_INDENT: 'scenario.yaml.badIndent',
  TAB_AS_INDENT: 'scenario.yaml.tabIndent',
  MISSING_CHAR: 'scenario.yaml.missingChar',
  UNEXPECTED_TOKEN: 'scenario.yaml.unexpectedToken',
  BLOCK_AS_IMPLICIT_KEY: 'scenario.yaml.nestedCompact',
  MULTILINE_IMPLICIT_KEY: 'scenario.yaml.multilineKey',
};

// Loaded on first use: a valid scenario never needs it (see load.ts), so start-up does not pay for it.
const require = createRequire(import.meta.url);
let yamlLib: typeof import('yaml') | undefined;
const yaml = () => (yamlLib ??= require('yaml') as typeof import('yaml'));

export type PathSegment = string | number;

const say = (code: ScenarioCode, params?: Parameters<typeof message>[1]): Message<ScenarioCode> => message(code, params);

export class YamlSource {
  readonly file: string;
  readonly doc: Document.Parsed;
  readonly #lines: import('yaml').LineCounter;

  constructor(file: string, text: string) {
    this.file = file;
    this.#lines = new (yaml().LineCounter)();
    this.doc = yaml().parseDocument(text, { lineCounter: this.#lines, uniqueKeys: true });
  }

  /** Syntax errors (bad indentation, duplicate keys, …), each at its position. */
  syntaxProblems(): ScenarioProblem[] {
    return [...this.doc.errors].map((error) => {
      const pos = error.linePos?.[0] ?? { line: 1, col: 1 };
      const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      // yaml catches its own stack overflow on very deep nesting and reports it as a syntax error.
      const key = SYNTAX_MESSAGES[error.code];
      const said: Message<ScenarioCode> = /Maximum call stack size exceeded/.test(message) ? say('scenario.yaml.tooDeep', { max: MAX_DEPTH }) : say(key ?? 'scenario.yaml.syntax', { message });
      return { file: this.file, line: pos.line, col: pos.col, field: '', message: said };
    });
  }

  /**
   * What must hold before the document is turned into data: nesting at most MAX_DEPTH deep, every alias
   * naming an anchor set before it, at most MAX_ALIASES aliases. An iterative walk, so no file can
   * overflow the stack; it stops at the first problem.
   */
  boundsProblems(): ScenarioProblem[] {
    const { isAlias, isCollection, isPair } = yaml();
    const anchors = new Set<string>();
    let aliases = 0;
    const stack: Array<{ node: unknown; depth: number }> = [{ node: this.doc.contents, depth: 0 }];
    while (stack.length > 0) {
      const { node, depth } = stack.pop()!;
      if (node === null || node === undefined) continue;
      if (isPair(node)) {
        stack.push({ node: node.value, depth }, { node: node.key, depth });
        continue;
      }
      if (isAlias(node)) {
        aliases += 1;
        if (!anchors.has(node.source)) return [this.#problem(node, say('scenario.yaml.noAnchor', { name: node.source }))];
        if (aliases > MAX_ALIASES) return [this.#problem(node, say('scenario.yaml.tooManyAliases', { max: MAX_ALIASES }))];
        continue;
      }
      const anchor = (node as { anchor?: string }).anchor;
      if (anchor !== undefined) anchors.add(anchor);
      if (!isCollection(node)) continue;
      if (depth >= MAX_DEPTH) return [this.#problem(node, say('scenario.yaml.tooDeep', { max: MAX_DEPTH }))];
      for (let i = node.items.length - 1; i >= 0; i -= 1) stack.push({ node: node.items[i], depth: depth + 1 });
    }
    return [];
  }

  /** Position of the first alias, where a too-large expansion is reported. */
  firstAlias(): { line: number; col: number } {
    let found: { line: number; col: number } = { line: 1, col: 1 };
    yaml().visit(this.doc, {
      Alias: (_key, node) => {
        if (node.range) found = this.#lines.linePos(node.range[0]);
        return yaml().visit.BREAK;
      },
    });
    return found;
  }

  /**
   * The data; call it only once boundsProblems() found nothing. yaml's own guard against alias expansion
   * stays on (it refuses what would grow far past the file), reported at the first alias.
   */
  toJS(): { data: unknown } | { problem: ScenarioProblem } {
    try {
      return { data: this.doc.toJS({ maxAliasCount: MAX_ALIASES }) };
    } catch (error) {
      const where = { file: this.file, ...this.firstAlias(), field: '' };
      return { problem: { ...where, message: say('scenario.yaml.aliasesExpand', { message: (error as Error).message.split('\n')[0]! }) } };
    }
  }

  #problem(node: unknown, message: Said): ScenarioProblem {
    const range = (node as Node).range;
    return { file: this.file, ...(range ? this.#lines.linePos(range[0]) : { line: 1, col: 1 }), field: '', message };
  }

  /** Position of the value at `path`, or of its nearest ancestor that exists. */
  positionOf(path: readonly PathSegment[], options: { key?: boolean } = {}): { line: number; col: number } {
    for (let n = path.length; n >= 0; n -= 1) {
      const node = this.nodeAt(path.slice(0, n), options.key === true && n === path.length);
      if (node?.range) return this.#lines.linePos(node.range[0]);
    }
    return { line: 1, col: 1 };
  }

  /** The node at `path`; with `key`, the map key node of the last segment instead of its value. */
  nodeAt(path: readonly PathSegment[], key = false): Node | undefined {
    if (!key) {
      if (path.length === 0) return (this.doc.contents as Node | null) ?? undefined;
      const node = this.doc.getIn(path, true);
      return node && typeof node === 'object' && 'range' in node ? (node as Node) : undefined;
    }
    const parent = path.length === 1 ? this.doc.contents : this.doc.getIn(path.slice(0, -1), true);
    const { isMap, isPair, isScalar } = yaml();
    if (!isMap(parent)) return undefined;
    const last = path.at(-1);
    const pair = parent.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === last);
    return pair && isScalar(pair.key) ? pair.key : undefined;
  }

  problem(path: readonly PathSegment[], message: Said, options: { key?: boolean } = {}): ScenarioProblem {
    const { line, col } = this.positionOf(path, options);
    return { file: this.file, line, col, field: fieldName(path), message };
  }
}

/** `['faults', 0, 'at', 'attempt']` → `faults[0].at.attempt` */
export function fieldName(path: readonly PathSegment[]): string {
  return path.reduce<string>((out, seg) => (typeof seg === 'number' ? `${out}[${seg}]` : out === '' ? seg : `${out}.${seg}`), '');
}

/**
 * A problem found after loading (a lab that cannot run), placed at its field: the file is read again and
 * `path` mapped to its line and column. `shown` is the file as messages name it.
 */
export function problemInFile(readFrom: string, shown: string, path: readonly PathSegment[], message: Said): ScenarioProblem {
  let text: string;
  try {
    text = readFileSync(readFrom, 'utf8');
  } catch {
    return { file: shown, line: 0, col: 0, field: fieldName(path), message };
  }
  return new YamlSource(shown, text).problem(path, message);
}
