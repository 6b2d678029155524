/**
 * YAML in, typed scenarios out. Targets may be files, folders (their *.yaml, not recursive) or scenario
 * ids (looked up in scenarios/, scenarios/pillars/, scenarios/labs/, scenarios/lessons/, scenarios/workers/, scenarios/limits/, scenarios/limits/unsafe/ and scenarios/postgres/). Every problem in every file is collected before
 * anything is reported, so one run shows a teacher all that is wrong, each at its file, line and column.
 *
 * Two paths: a valid file takes the quick one (js-yaml, the validator compiled at build time); anything
 * else is parsed again by `yaml`, which keeps positions, and checked by Ajv with every error reported.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { LAB_SCHEMA_PATH, RACE_SCHEMA_PATH, SCENARIO_SCHEMA_PATH, SCENARIOS_DIR } from '../core/paths.js';
import { isMessage, message, type Message, type Said } from '../core/message.js';
import type { ScenarioCode } from './codes.js';
import { fastValidator } from './fastValidator.js';
import { MAX_DEPTH, MAX_VALUES } from './limits.js';
import { isOk, measure, yamlNumber } from './measure.js';
import { quickParse } from './quickParse.js';
import { readScenarioText } from './readText.js';
import { ScenarioError, type ScenarioProblem } from './ScenarioError.js';
import { semanticIssues, toScenario, type ScenarioDocument, type SemanticIssue } from './toScenario.js';
import type { Scenario } from './types.js';
import { schemaProblems } from './validateSchema.js';
import type { ScenarioWords } from './words.js';
import { fieldName, YamlSource } from './yamlSource.js';

const YAML_FILE = /\.ya?ml$/;

/** Where a bare scenario id is looked for, in this order (the first file named `<id>.yaml` wins). */
export const ID_FOLDERS = ['', 'graded', 'pillars', 'labs', 'lessons', 'workers', 'limits', 'limits/unsafe', 'postgres'] as const;

/** How a scenario kind other than the runner's (the labs) is loaded. */
export interface KindLoader<T> {
  schemaPath: string;
  /** Problems the schema cannot express, each with the path of the value it is about. */
  semantic?(data: unknown): SemanticIssue[];
  build(data: unknown, file: string): T;
}

export type Loaded =
  | { type: 'runner'; file: string; scenario: Scenario }
  | {
      type: 'other';
      kind: string;
      /** As shown in messages (relative to the working directory). */
      file: string;
      /** Where it was read from, to point at a field's line later (a lab's input error: problemInFile). */
      readFrom: string;
      id: string;
      /** English; `zh` holds the Chinese words when the file gives them (show them through wordsOf, ./words.ts). */
      title: string;
      explain: string;
      zh?: ScenarioWords;
      value: unknown;
    };

const kindLoaders = new Map<string, KindLoader<unknown>>([
  // The labs (src/labs): validated here against their own schema, run by src/labs on the shared harness.
  ['lab', { schemaPath: LAB_SCHEMA_PATH, build: (data) => data }],
  // The races on PostgreSQL (src/labs/races): two sessions moved one statement at a time.
  ['postgres_race', { schemaPath: RACE_SCHEMA_PATH, build: (data) => data }],
]);

const isFolder = (target: string) => {
  try {
    return statSync(target).isDirectory();
  } catch {
    return false;
  }
};

/** What `faultlab run lost_reply` may name: a scenario id, never a path (it is looked up under scenarios/). */
const SCENARIO_ID = /^[a-z][a-z0-9_]*$/;

/**
 * Where relative targets are looked for, and what the messages show paths relative to. Without a cwd,
 * paths are read and shown as given (the library never reads the process's working directory itself).
 */
export interface LoadOptions {
  cwd?: string;
}

/** Expand targets into scenario files, in a stable order. Unknown targets are problems too. */
export function resolveTargets(targets: readonly string[], problems: ScenarioProblem[] = [], options: LoadOptions = {}): string[] {
  const files: string[] = [];
  const at = (target: string) => (options.cwd === undefined ? target : resolve(options.cwd, target));
  const problem = (file: string, said: Message<ScenarioCode>) => problems.push({ file, line: 0, col: 0, field: '', message: said });
  for (const given of targets.length > 0 ? targets : [SCENARIOS_DIR]) {
    if (given === '') {
      problem('""', message<ScenarioCode>('scenario.target.empty'));
      continue;
    }
    const target = at(given);
    if (isFolder(target)) {
      let names: string[];
      try {
        names = readdirSync(target).filter((f) => YAML_FILE.test(f)).sort();
      } catch (error) {
        problem(given, message<ScenarioCode>('scenario.target.cannotReadFolder', { reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message }));
        continue;
      }
      // A mistyped folder must not pass as "nothing failed".
      if (names.length === 0) problem(given, message<ScenarioCode>('scenario.target.emptyFolder', { dir: given }));
      files.push(...names.map((f) => join(target, f)));
    } else if (existsSync(target)) {
      files.push(target);
    } else {
      const byId = SCENARIO_ID.test(given) ? ID_FOLDERS.map((sub) => join(SCENARIOS_DIR, sub, `${given}.yaml`)).find((f) => existsSync(f)) : undefined;
      if (byId) files.push(byId);
      else problem(given, message<ScenarioCode>('scenario.target.unknown'));
    }
  }
  return files;
}

function displayPath(file: string, options: LoadOptions): string {
  if (options.cwd === undefined) return file;
  const rel = relative(options.cwd, resolve(options.cwd, file));
  return rel.startsWith('..') ? resolve(options.cwd, file) : rel;
}

interface KindPlan {
  kind: string;
  schemaPath: string;
  semantic(data: unknown): SemanticIssue[];
  build(data: unknown, file: string, readFrom: string): Loaded;
}

function planFor(data: unknown): KindPlan | Message<ScenarioCode> {
  const kind = typeof data === 'object' && data !== null && typeof (data as { kind?: unknown }).kind === 'string' ? (data as { kind: string }).kind : 'runner';
  if (kind === 'runner') {
    return {
      kind,
      schemaPath: SCENARIO_SCHEMA_PATH,
      semantic: (d) => semanticIssues(d as ScenarioDocument),
      build: (d, file) => ({ type: 'runner', file, scenario: toScenario(d as ScenarioDocument, file) }),
    };
  }
  const loader = kindLoaders.get(kind);
  if (loader === undefined) return message<ScenarioCode>('scenario.kind.unknown', { kind: JSON.stringify(kind), known: ['runner', ...kindLoaders.keys()].join(', ') });
  return {
    kind,
    schemaPath: loader.schemaPath,
    semantic: (d) => loader.semantic?.(d) ?? [],
    build: (d, file, readFrom) => {
      const doc = d as { id: string; title?: string; explain?: string; zh?: ScenarioWords };
      const words = { title: doc.title ?? '', explain: doc.explain ?? '', ...(doc.zh !== undefined ? { zh: doc.zh } : {}) };
      return { type: 'other', kind, file, readFrom, id: doc.id, ...words, value: loader.build(d, file) };
    },
  };
}

/**
 * The quick path: js-yaml (or its value kept at build time, ./quickParse.ts), then the compiled validator. A file it cannot take goes to the precise path,
 * except one nested too deep for any parser to walk safely, which is refused here, where js-yaml found it.
 */
function quickLoad(text: string, file: string, readFrom: string, problems: ScenarioProblem[]): Loaded | 'refused' | null {
  let data: unknown;
  try {
    data = quickParse(text);
  } catch (error) {
    const { reason, mark } = error as { reason?: string; mark?: { line: number; column: number } };
    if (reason?.startsWith('nesting exceeded maxDepth') && mark) {
      problems.push({ file, line: mark.line + 1, col: mark.column + 1, field: '', message: message<ScenarioCode>('scenario.yaml.tooDeep', { max: MAX_DEPTH }) });
      return 'refused';
    }
    return null;
  }
  if (!isOk(measure(data))) return null;
  const plan = planFor(data);
  if (isMessage(plan)) return null;
  const valid = fastValidator(plan.schemaPath);
  if (valid === null || !valid(data) || plan.semantic(data).length > 0) return null;
  return plan.build(data, file, readFrom);
}

/** The precise path: every problem, at its line and column. */
function preciseLoad(text: string, file: string, readFrom: string, problems: ScenarioProblem[]): Loaded | null {
  let source: YamlSource;
  try {
    source = new YamlSource(file, text);
  } catch (error) {
    problems.push({ file, line: 1, col: 1, field: '', message: message<ScenarioCode>('scenario.yaml.cannotParse', { message: (error as Error).message }) });
    return null;
  }
  const early = [...source.syntaxProblems()];
  if (early.length === 0) early.push(...source.boundsProblems());
  if (early.length > 0) {
    problems.push(...early);
    return null;
  }
  const js = source.toJS();
  if ('problem' in js) {
    problems.push(js.problem);
    return null;
  }
  const data = js.data;
  const size = measure(data);
  if (size.tooLarge || size.tooDeep) {
    const said = size.tooLarge ? message<ScenarioCode>('scenario.yaml.aliasesTooLarge', { max: MAX_VALUES.toLocaleString('en-US') }) : message<ScenarioCode>('scenario.yaml.aliasesTooDeep', { max: MAX_DEPTH });
    problems.push({ file, ...source.firstAlias(), field: '', message: said });
    return null;
  }
  const plan = planFor(data);
  if (isMessage(plan)) {
    problems.push(source.problem(['kind'], plan));
    return null;
  }
  const found = schemaProblems(source, data, plan.schemaPath);
  // .inf, .nan and 1e400 where the schema has no range to say so (free-form values such as script args).
  const reported = new Set(found.map((p) => p.field));
  for (const { path, value } of size.nonFinite) {
    if (!reported.has(fieldName(path))) found.push(source.problem(path, message<ScenarioCode>('scenario.nonFinite', { got: yamlNumber(value) })));
  }
  if (found.length === 0) found.push(...plan.semantic(data).map((issue) => source.problem(issue.path, issue.message, { key: issue.key ?? false })));
  problems.push(...found);
  return found.length > 0 ? null : plan.build(data, file, readFrom);
}

export function parseScenarioFile(file: string, problems: ScenarioProblem[], options: LoadOptions = {}): Loaded | null {
  const shown = displayPath(file, options);
  const read = readScenarioText(file);
  if ('problem' in read) {
    problems.push({ file: shown, line: 0, col: 0, field: '', message: read.problem });
    return null;
  }
  const quick = quickLoad(read.text, shown, file, problems);
  if (quick === 'refused') return null;
  return quick ?? preciseLoad(read.text, shown, file, problems);
}

/** Where a file's `id:` is, for a message about it (only on the error path: the file is parsed again). */
function idProblem(file: string, shown: string, said: Said): ScenarioProblem {
  const read = readScenarioText(file);
  if ('problem' in read) return { file: shown, line: 1, col: 1, field: 'id', message: said };
  return new YamlSource(shown, read.text).problem(['id'], said);
}

/** Load every target; throws ScenarioError listing every problem found, or returns all scenarios. */
export function loadAll(targets: readonly string[], options: LoadOptions = {}): Loaded[] {
  const problems: ScenarioProblem[] = [];
  const loaded: Loaded[] = [];
  const ids = new Map<string, string>();
  for (const file of resolveTargets(targets, problems, options)) {
    const one = parseScenarioFile(file, problems, options);
    if (one === null) continue;
    const id = one.type === 'runner' ? one.scenario.id : one.id;
    const first = ids.get(id);
    if (first === one.file) continue; // the same file named twice
    if (first !== undefined) {
      problems.push(idProblem(file, one.file, message<ScenarioCode>('scenario.id.taken', { id, first })));
      continue;
    }
    ids.set(id, one.file);
    loaded.push(one);
  }
  if (problems.length > 0) throw new ScenarioError(problems);
  // Folders come out in the scenarios' own order (docs/spec.md §6 numbering); explicitly named files keep theirs.
  if (targets.length > 0 && !targets.some((t) => isFolder(options.cwd === undefined ? t : resolve(options.cwd, t)))) return loaded;
  const rank = (l: Loaded) => (l.type === 'runner' ? (l.scenario.order ?? Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER);
  const idOf = (l: Loaded) => (l.type === 'runner' ? l.scenario.id : l.id);
  return [...loaded].sort((a, b) => rank(a) - rank(b) || idOf(a).localeCompare(idOf(b)));
}

/** The runner scenarios among the targets (the 17 by default). */
export function loadScenarios(targets: readonly string[] = [], options: LoadOptions = {}): Scenario[] {
  return loadAll(targets, options).flatMap((l) => (l.type === 'runner' ? [l.scenario] : []));
}

export function loadScenario(target: string, options: LoadOptions = {}): Scenario {
  const [scenario] = loadScenarios([target], options);
  if (scenario === undefined) throw new ScenarioError([{ file: target, line: 0, col: 0, field: '', message: message<ScenarioCode>('scenario.notRunner') }]);
  return scenario;
}
