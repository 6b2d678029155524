/**
 * YAML in, typed scenarios out. Targets may be files, folders (their *.yaml, not recursive) or scenario
 * ids (looked up in scenarios/). Every problem in every file is collected before anything is reported,
 * so one run shows a teacher all that is wrong, each at its file, line and column.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { SCENARIO_SCHEMA_PATH, SCENARIOS_DIR } from '../paths.js';
import { ScenarioError, type ScenarioProblem } from './ScenarioError.js';
import { toScenario, type ScenarioDocument } from './toScenario.js';
import type { Scenario } from './types.js';
import { schemaProblems } from './validateSchema.js';
import { YamlSource } from './yamlSource.js';

const YAML_FILE = /\.ya?ml$/;

/** Other scenario kinds (the durability pillars) register a loader for their `kind:` here. */
export interface KindLoader<T> {
  schemaPath: string;
  build(data: unknown, source: YamlSource): { value: T; problems: ScenarioProblem[] };
}

export type Loaded =
  | { type: 'runner'; file: string; scenario: Scenario }
  | { type: 'other'; kind: string; file: string; id: string; value: unknown };

const kindLoaders = new Map<string, KindLoader<unknown>>();

export function registerScenarioKind<T>(kind: string, loader: KindLoader<T>): void {
  kindLoaders.set(kind, loader as KindLoader<unknown>);
}

/** Expand targets into scenario files, in a stable order. Unknown targets are problems too. */
export function resolveTargets(targets: readonly string[], problems: ScenarioProblem[] = []): string[] {
  const files: string[] = [];
  for (const target of targets.length > 0 ? targets : [SCENARIOS_DIR]) {
    if (existsSync(target) && statSync(target).isDirectory()) {
      files.push(...readdirSync(target).filter((f) => YAML_FILE.test(f)).sort().map((f) => join(target, f)));
    } else if (existsSync(target)) {
      files.push(target);
    } else {
      const byId = [join(SCENARIOS_DIR, `${target}.yaml`), join(SCENARIOS_DIR, 'pillars', `${target}.yaml`)].find((f) => existsSync(f));
      if (byId) files.push(byId);
      else problems.push({ file: target, line: 0, col: 0, field: '', message: 'no such file, folder or scenario id (see `faultlab list`)' });
    }
  }
  return files;
}

function displayPath(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return rel.startsWith('..') ? resolve(file) : rel;
}

export function parseScenarioFile(file: string, problems: ScenarioProblem[]): Loaded | null {
  const shown = displayPath(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    problems.push({ file: shown, line: 0, col: 0, field: '', message: `cannot read: ${(error as Error).message}` });
    return null;
  }
  const source = new YamlSource(shown, text);
  const syntax = source.syntaxProblems();
  if (syntax.length > 0) {
    problems.push(...syntax);
    return null;
  }
  const data = source.toJS();
  const kind = typeof data === 'object' && data !== null && typeof (data as { kind?: unknown }).kind === 'string' ? (data as { kind: string }).kind : 'runner';
  if (kind !== 'runner') {
    const loader = kindLoaders.get(kind);
    if (loader === undefined) {
      problems.push(source.problem(['kind'], `unknown scenario kind ${JSON.stringify(kind)} (known: runner${[...kindLoaders.keys()].map((k) => `, ${k}`).join('')})`));
      return null;
    }
    const found = schemaProblems(source, data, loader.schemaPath);
    if (found.length > 0) {
      problems.push(...found);
      return null;
    }
    const built = loader.build(data, source);
    problems.push(...built.problems);
    return built.problems.length > 0 ? null : { type: 'other', kind, file: shown, id: (data as { id: string }).id, value: built.value };
  }
  const found = schemaProblems(source, data, SCENARIO_SCHEMA_PATH);
  if (found.length > 0) {
    problems.push(...found);
    return null;
  }
  const built = toScenario(data as ScenarioDocument, source);
  problems.push(...built.problems);
  return built.problems.length > 0 ? null : { type: 'runner', file: shown, scenario: built.scenario };
}

/** Load every target; throws ScenarioError listing every problem found, or returns all scenarios. */
export function loadAll(targets: readonly string[]): Loaded[] {
  const problems: ScenarioProblem[] = [];
  const loaded: Loaded[] = [];
  const ids = new Map<string, string>();
  for (const file of resolveTargets(targets, problems)) {
    const one = parseScenarioFile(file, problems);
    if (one === null) continue;
    const id = one.type === 'runner' ? one.scenario.id : one.id;
    const first = ids.get(id);
    if (first !== undefined && first !== one.file) {
      problems.push({ file: one.file, line: 1, col: 1, field: 'id', message: `${id} is already the id of ${first}` });
      continue;
    }
    if (first === undefined) {
      ids.set(id, one.file);
      loaded.push(one);
    }
  }
  if (problems.length > 0) throw new ScenarioError(problems);
  const rank = (l: Loaded) => (l.type === 'runner' ? (l.scenario.order ?? Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER);
  const id = (l: Loaded) => (l.type === 'runner' ? l.scenario.id : l.id);
  // Folders come out in the scenarios' own order (SPEC §6 numbering); explicitly named targets keep theirs.
  return targets.length > 0 && targets.every((t) => !isFolder(t)) ? loaded : [...loaded].sort((a, b) => rank(a) - rank(b) || id(a).localeCompare(id(b)));
}

const isFolder = (target: string) => existsSync(target) && statSync(target).isDirectory();

/** The runner scenarios among the targets (the 17 by default). */
export function loadScenarios(targets: readonly string[] = []): Scenario[] {
  return loadAll(targets).flatMap((l) => (l.type === 'runner' ? [l.scenario] : []));
}

export function loadScenario(target: string): Scenario {
  const [scenario] = loadScenarios([target]);
  if (scenario === undefined) throw new ScenarioError([{ file: target, line: 0, col: 0, field: '', message: 'not a runner scenario' }]);
  return scenario;
}

export const scenarioId = (file: string) => basename(file).replace(YAML_FILE, '');
