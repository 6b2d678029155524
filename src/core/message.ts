/**
 * A message is data: a code and the values its words are made of. The engine (every folder below src/render)
 * says what happened as a Message and never as a sentence; the renderers and the CLI word it, in the language
 * they are given (src/render/words). So a run is the same value in every language, `--json` carries the code
 * and its parameters for a script to read, and a teacher's tooling never parses a sentence.
 *
 * Each layer that makes messages owns the list of its codes (`codes.ts` beside it); the catalogues, above
 * them, are typed so that a code without an English and a Chinese text does not compile.
 */

/** A value a message is worded with: a figure, a name or a text taken as it is, or another message. */
export type Param = string | number | Message;

export type Params = Readonly<Record<string, Param>>;

export interface Message<C extends string = string> {
  readonly code: C;
  readonly params: Params;
}

const NONE: Params = Object.freeze({});

export function message<C extends string>(code: C, params: Params = NONE): Message<C> {
  return { code, params };
}

export function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && typeof (value as Message).code === 'string' && typeof (value as Message).params === 'object';
}

/**
 * What was said: a runner's own text, taken as it is (the message of an error it threw), or a message of
 * faultlab's, to be worded.
 */
export type Said = string | Message;

/**
 * A message as a line for a stack trace or a log, in no language: `code {name: value, …}`. An error made in
 * the engine keeps its Message for whoever shows it to a user, and this as its `.message`.
 */
export function codeText(said: Said): string {
  if (typeof said === 'string') return said;
  const params = Object.entries(said.params);
  if (params.length === 0) return said.code;
  return `${said.code} {${params.map(([name, value]) => `${name}: ${typeof value === 'object' ? codeText(value) : String(value)}`).join(', ')}}`;
}

/** Items one after another as one parameter: each two joined by `code`, whose text is `{first}…{rest}` (empty: ''). */
export function joined(code: string, items: readonly Param[]): Param {
  if (items.length === 0) return '';
  return items.slice(0, -1).reduceRight<Param>((rest, first) => message(code, { first, rest }), items[items.length - 1]!);
}

/** Names one after another as one parameter: `a, b, c` in English, `a、b、c` in Chinese (the code `core.list`). */
export function listed(items: readonly Param[]): Param {
  return joined('core.list', items);
}

/** What was said with every text in it changed by `change` (a runner's own text, or a message's text parameters). */
export function mapText(said: Said, change: (text: string) => string): Said {
  if (typeof said === 'string') return change(said);
  const params: Record<string, Param> = {};
  for (const [name, value] of Object.entries(said.params)) params[name] = typeof value === 'number' ? value : (mapText(value, change) as Param);
  return { code: said.code, params };
}

/** The Message an error carries (`said`), when it was made by faultlab and is one. */
export function saidOf(error: unknown): Message | undefined {
  const said = (error as { said?: unknown } | null)?.said;
  return isMessage(said) ? said : undefined;
}

/** An error as `Name: what it said`, its message worded when faultlab made it (a message), else its own text. */
export function namedError(error: unknown, firstLine = false): Param {
  if (!(error instanceof Error)) return String(error);
  const said = saidOf(error);
  if (said !== undefined) return message('error.named', { name: error.name, message: said });
  return `${error.name}: ${firstLine ? error.message.split('\n')[0] : error.message}`;
}

/** An error made by the engine: its Message for users, its code text for a stack trace. */
export class MessageError extends Error {
  readonly said: Message;

  constructor(said: Message, options?: ErrorOptions) {
    super(codeText(said), options);
    this.said = said;
  }
}
