/**
 * Schema validation with messages a person can act on. The JSON Schema in scenarios/ is the single source
 * of truth: editors complete with it, and this turns each of Ajv's errors into one `field: what is wrong`
 * at the position of the offending value in the YAML.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { yamlNumber } from './measure.js';
import type { ScenarioProblem } from './ScenarioError.js';
import type { PathSegment, YamlSource } from './yamlSource.js';

const compiled = new Map<string, ValidateFunction>();
// Ajv is loaded on first use: valid scenarios are checked by the validator compiled at build time.
const require = createRequire(import.meta.url);

/** Ajv compiled at run time, reporting every error with its schema (the precise path). */
export function validatorFor(schemaPath: string): ValidateFunction {
  let validate = compiled.get(schemaPath);
  if (validate === undefined) {
    const { Ajv } = require('ajv') as typeof import('ajv');
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
    validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object);
    compiled.set(schemaPath, validate);
  }
  return validate;
}

export function schemaProblems(source: YamlSource, value: unknown, schemaPath: string): ScenarioProblem[] {
  const validate = validatorFor(schemaPath);
  if (validate(value)) return [];
  // `if` only says a `then` failed (that failure is reported itself); anyOf's branches are summed up by anyOf.
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if' && !/\/anyOf\/\d+\//.test(e.schemaPath));
  const seen = new Set<string>();
  const problems: ScenarioProblem[] = [];
  for (const error of errors) {
    const problem = describe(source, error);
    const id = `${problem.line}:${problem.col}:${problem.field}:${problem.message}`;
    if (!seen.has(id)) {
      seen.add(id);
      problems.push(problem);
    }
  }
  return problems.sort((a, b) => a.line - b.line || a.col - b.col);
}

function pathOf(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** A value as the message shows it: YAML's words for non-finite numbers (JSON would say null), long ones cut. */
function shown(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return yamlNumber(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** The range an integer field takes, from its schema: `an integer from 0 to 1000`. */
function integerRange(schema: { minimum?: number; maximum?: number } | undefined): string {
  const { minimum, maximum } = schema ?? {};
  const n = (x: number) => x.toLocaleString('en-US');
  if (minimum !== undefined && maximum !== undefined) return `an integer from ${n(minimum)} to ${n(maximum)}`;
  if (minimum !== undefined) return `an integer >= ${n(minimum)}`;
  if (maximum !== undefined) return `an integer <= ${n(maximum)}`;
  return 'an integer';
}

const isIntegerSchema = (schema: unknown) => (schema as { type?: unknown } | undefined)?.type === 'integer';

function describe(source: YamlSource, error: ErrorObject): ScenarioProblem {
  const path = pathOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return source.problem([...path, params.missingProperty as string], 'missing (required)');
    case 'additionalProperties': {
      const name = params.additionalProperty as string;
      const allowed = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const guess = closest(name, allowed);
      const hint = allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : '';
      return source.problem([...path, name], `unknown field${guess ? ` — did you mean ${guess}?` : hint}`, { key: true });
    }
    case 'false schema':
      return source.problem(path, 'not allowed here for this fault kind (crash_after_event takes label/seq/tool; the others take tool/attempt/call; only concurrent_reserve takes qty)', { key: true });
    case 'anyOf':
      return source.problem(path, 'crash_after_event needs at.label or at.seq (which saved event to crash after)');
    case 'enum':
      return source.problem(path, `must be one of ${(params.allowedValues as unknown[]).map(shown).join(', ')} (got ${shown(error.data)})`);
    case 'const':
      return source.problem(path, `must be ${shown(params.allowedValue)} (got ${shown(error.data)})`);
    case 'type':
      if (params.type === 'integer') return source.problem(path, `must be ${integerRange(error.parentSchema as object)} (got ${shown(error.data)})`);
      return source.problem(path, `must be ${params.type as string} (got ${shown(error.data)})`);
    case 'minimum':
    case 'maximum':
      // One message for every way an integer can be out of range, with the whole range in it.
      if (isIntegerSchema(error.parentSchema)) return source.problem(path, `must be ${integerRange(error.parentSchema as object)} (got ${shown(error.data)})`);
      return source.problem(path, `must be ${error.keyword === 'minimum' ? '>=' : '<='} ${params.limit as number} (got ${shown(error.data)})`);
    case 'maxItems':
      return source.problem(path, `at most ${(params.limit as number).toLocaleString('en-US')} entries (the limit; got ${(error.data as unknown[]).length.toLocaleString('en-US')})`);
    case 'maxLength':
      return source.problem(path, `at most ${(params.limit as number).toLocaleString('en-US')} characters (the limit; got ${(error.data as string).length.toLocaleString('en-US')})`);
    case 'pattern':
      return source.problem(path, `must match ${params.pattern as string} (got ${shown(error.data)})`);
    case 'minProperties':
    case 'maxProperties':
      if (path[0] === 'policy') return source.problem(path, 'a script step is exactly one entry: `tool_name: {args}` or `finish: succeeded|gave_up`');
      if (error.keyword === 'maxProperties') return source.problem(path, `at most ${(params.limit as number).toLocaleString('en-US')} entries (the limit)`);
      return source.problem(path, `${error.message ?? 'wrong number of fields'}`);
    case 'dependencies':
      return source.problem([...path, params.property as string], `comes with ${params.missingProperty as string}: give both or neither`, { key: true });
    case 'propertyNames':
      return source.problem([...path, params.propertyName as string], 'a tool name is snake_case (a-z, 0-9, _)', { key: true });
    default:
      return source.problem(path, error.message ?? `fails ${error.keyword}`);
  }
}

/** The allowed name nearest to a misspelt one (edit distance <= 2), if any. */
function closest(name: string, allowed: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of allowed) {
    const d = distance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}
