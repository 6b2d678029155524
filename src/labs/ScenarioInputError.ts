import { codeText, message, type Said } from '../core/message.js';
import type { ConfigError } from '../durability/errors.js';
import type { PathSegment } from '../scenario/yamlSource.js';

/**
 * A lab the schema let through but that cannot run: an unknown dependency, a report for a call never
 * started, an error code no policy knows. Bad input, like a schema error: it carries the path of the
 * offending field (`['steps', 3, 'report', 'call']`) so the CLI can point at its line and column.
 */
export class ScenarioInputError extends Error {
  override readonly name = 'ScenarioInputError';
  readonly code = 'SCENARIO_INVALID';

  constructor(
    /** What is wrong with the field, as a message (its code text is the `.message`). */
    readonly said: Said,
    /** Where in the YAML document; empty for the document as a whole. */
    readonly path: readonly PathSegment[] = [],
  ) {
    super(codeText(said));
  }
}

/** `runs.2.max_delay_ms` → `['runs', 2, 'max_delay_ms']`: a ConfigError's dotted field as a YAML path. */
export function fieldPath(field: string): PathSegment[] {
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/**
 * A ConfigError raised by a lab's own fields (a `config:` override, a run's policy) as bad input at that
 * field: the position names the field, the message says the rest (`must be …, got …`).
 */
export function fromConfigError(error: ConfigError): ScenarioInputError {
  return new ScenarioInputError(message('config.mustBe.atField', { allowed: error.allowed, given: error.said.params.given! }), fieldPath(error.field));
}
