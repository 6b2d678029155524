/**
 * A parsed YAML file that can still say where each value came from: the bridge between a schema error's
 * JSON path and the `file:line:col` a human needs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Document, Node } from 'yaml';
import type { ScenarioProblem } from './ScenarioError.js';

// Loaded on first use: a valid scenario never needs it (see load.ts), so start-up does not pay for it.
const require = createRequire(import.meta.url);
let yamlLib: typeof import('yaml') | undefined;
const yaml = () => (yamlLib ??= require('yaml') as typeof import('yaml'));

export type PathSegment = string | number;

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
      return { file: this.file, line: pos.line, col: pos.col, field: '', message: `YAML syntax: ${message}` };
    });
  }

  toJS(): unknown {
    return this.doc.toJS({ maxAliasCount: 100 });
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

  problem(path: readonly PathSegment[], message: string, options: { key?: boolean } = {}): ScenarioProblem {
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
export function problemInFile(readFrom: string, shown: string, path: readonly PathSegment[], message: string): ScenarioProblem {
  let text: string;
  try {
    text = readFileSync(readFrom, 'utf8');
  } catch {
    return { file: shown, line: 0, col: 0, field: fieldName(path), message };
  }
  return new YamlSource(shown, text).problem(path, message);
}
