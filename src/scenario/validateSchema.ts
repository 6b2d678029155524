/**
 * Schema validation with messages a person can act on. The JSON Schema in scenarios/ is the single source
 * of truth: editors complete with it, and this turns each of Ajv's errors into one `field: what is wrong`
 * at the position of the offending value in the YAML.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { codeText, message, type Message, type Param, type Params, type Said } from '../core/message.js';
import type { ScenarioCode } from './codes.js';
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
    const id = `${problem.line}:${problem.col}:${problem.field}:${codeText(problem.message)}`;
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

/** A figure as every message writes it, in either language: `1,000,000`. */
const figure = (x: number) => x.toLocaleString('en-US');

/** JSON Schema's name for a type, as a message says it (`object` is a mapping to a reader of YAML). */
function typeName(type: unknown): Param {
  const names: Record<string, ScenarioCode> = {
    object: 'scenario.type.object',
    array: 'scenario.type.array',
    string: 'scenario.type.string',
    number: 'scenario.type.number',
    boolean: 'scenario.type.boolean',
    null: 'scenario.type.null',
  };
  const key = typeof type === 'string' && Object.hasOwn(names, type) ? names[type] : undefined;
  return key !== undefined ? say(key) : String(type);
}

/** The range an integer field takes, from its schema: `an integer from 0 to 1000`. */
function integerRange(schema: { minimum?: number; maximum?: number } | undefined): Message<ScenarioCode> {
  const { minimum, maximum } = schema ?? {};
  if (minimum !== undefined && maximum !== undefined) return say('scenario.range.between', { min: figure(minimum), max: figure(maximum) });
  if (minimum !== undefined) return say('scenario.range.atLeast', { min: figure(minimum) });
  if (maximum !== undefined) return say('scenario.range.atMost', { max: figure(maximum) });
  return say('scenario.range.any');
}

const isIntegerSchema = (schema: unknown) => (schema as { type?: unknown } | undefined)?.type === 'integer';

/** A lab's step (`steps[n]`) that carries a note's Chinese (`zh:`). */
const isNoteStep = (path: readonly PathSegment[], data: unknown) =>
  path.length === 2 && path[0] === 'steps' && typeof path[1] === 'number' && typeof data === 'object' && data !== null && 'zh' in data;

function describe(source: YamlSource, error: ErrorObject): ScenarioProblem {
  const path = pathOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      // A lab step's `zh:` is the Chinese of its note: said as such, at the zh, when the note is missing.
      if (params.missingProperty === 'note' && isNoteStep(path, error.data)) return source.problem([...path, 'zh'], say('scenario.schema.zhNeedsNote'), { key: true });
      return source.problem([...path, params.missingProperty as string], say('scenario.schema.required'));
    case 'additionalProperties': {
      const name = params.additionalProperty as string;
      const allowed = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const guess = closest(name, allowed);
      const said = guess
        ? say('scenario.schema.unknownFieldGuess', { guess })
        : allowed.length > 0
          ? say('scenario.schema.unknownFieldAllowed', { allowed: allowed.join(', ') })
          : say('scenario.schema.unknownField');
      return source.problem([...path, name], said, { key: true });
    }
    case 'false schema':
      return source.problem(path, say('scenario.schema.faultField'), { key: true });
    case 'anyOf':
      return source.problem(path, say('scenario.schema.crashAfterEvent'));
    case 'enum':
      return source.problem(path, say('scenario.schema.oneOf', { allowed: (params.allowedValues as unknown[]).map(shown).join(', '), got: shown(error.data) }));
    case 'const':
      return source.problem(path, say('scenario.schema.const', { allowed: shown(params.allowedValue), got: shown(error.data) }));
    case 'type':
      if (params.type === 'integer') return source.problem(path, say('scenario.schema.type', { type: integerRange(error.parentSchema as object), got: shown(error.data) }));
      return source.problem(path, say('scenario.schema.type', { type: typeName(params.type), got: shown(error.data) }));
    case 'minimum':
    case 'maximum':
      // One message for every way an integer can be out of range, with the whole range in it.
      if (isIntegerSchema(error.parentSchema)) return source.problem(path, say('scenario.schema.type', { type: integerRange(error.parentSchema as object), got: shown(error.data) }));
      return source.problem(path, say(error.keyword === 'minimum' ? 'scenario.schema.min' : 'scenario.schema.max', { limit: params.limit as number, got: shown(error.data) }));
    case 'maxItems':
      return source.problem(path, say('scenario.schema.maxItems', { limit: figure(params.limit as number), count: figure((error.data as unknown[]).length) }));
    case 'maxLength':
      return source.problem(path, say('scenario.schema.maxLength', { limit: figure(params.limit as number), count: figure((error.data as string).length) }));
    case 'pattern':
      return source.problem(path, say('scenario.schema.pattern', { pattern: params.pattern as string, got: shown(error.data) }));
    case 'minProperties':
    case 'maxProperties':
      // `{args}` is the message's own text (a step's arguments), given as itself.
      if (path[0] === 'policy') return source.problem(path, say('scenario.schema.scriptStep', { args: '{args}' }));
      if (error.keyword === 'maxProperties' && isNoteStep(path, error.data)) {
        return source.problem(path, say('scenario.schema.noteStepFields', { got: Object.keys(error.data as object).join(', ') }));
      }
      if (error.keyword === 'maxProperties') return source.problem(path, say('scenario.schema.maxProperties', { limit: figure(params.limit as number) }));
      return source.problem(path, ajvMessage(error) ?? say('scenario.schema.wrongFieldCount'));
    case 'dependencies':
      return source.problem([...path, params.property as string], say('scenario.schema.dependencies', { other: params.missingProperty as string }), { key: true });
    case 'propertyNames':
      return source.problem([...path, params.propertyName as string], say('scenario.schema.toolName'), { key: true });
    default:
      return source.problem(path, ajvMessage(error) ?? say('scenario.schema.fails', { keyword: error.keyword }));
  }
}

/**
 * Ajv's words for the keywords not said above, as Ajv 8 says them in English: a message of ours when Ajv said
 * exactly that (the English catalogue's text for it is Ajv's own words, test/render/words.test.ts holds it),
 * else Ajv's message as it is — another version of Ajv may say something else, and it is shown unchanged.
 */
export const AJV_WORDS: Readonly<Record<string, { code: ScenarioCode; params: (p: { limit?: number; i?: number; j?: number }) => Params; ajv: (p: Params) => string }>> = {
  minProperties: { code: 'scenario.schema.minProperties', params: (p) => ({ limit: p.limit ?? 0 }), ajv: (p) => `must NOT have fewer than ${String(p.limit)} properties` },
  minItems: { code: 'scenario.schema.minItems', params: (p) => ({ limit: p.limit ?? 0 }), ajv: (p) => `must NOT have fewer than ${String(p.limit)} items` },
  minLength: { code: 'scenario.schema.minLength', params: (p) => ({ limit: p.limit ?? 0 }), ajv: (p) => `must NOT have fewer than ${String(p.limit)} characters` },
  exclusiveMinimum: { code: 'scenario.schema.exclusiveMinimum', params: (p) => ({ limit: p.limit ?? 0 }), ajv: (p) => `must be > ${String(p.limit)}` },
  uniqueItems: {
    code: 'scenario.schema.uniqueItems',
    params: (p) => ({ first: p.i ?? 0, second: p.j ?? 0 }),
    ajv: (p) => `must NOT have duplicate items (items ## ${String(p.second)} and ${String(p.first)} are identical)`,
  },
};

function ajvMessage(error: ErrorObject): Said | undefined {
  const known = Object.hasOwn(AJV_WORDS, error.keyword) ? AJV_WORDS[error.keyword] : undefined;
  if (known === undefined) return error.message;
  const params = known.params(error.params as { limit?: number; i?: number; j?: number });
  return known.ajv(params) === error.message ? say(known.code, params) : error.message;
}

const say = (code: ScenarioCode, params?: Params): Message<ScenarioCode> => message(code, params);

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
