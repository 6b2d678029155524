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
    message: string,
    /** Where in the YAML document; empty for the document as a whole. */
    readonly path: readonly PathSegment[] = [],
  ) {
    super(message);
  }
}

/** `runs.2.max_delay_ms` → `['runs', 2, 'max_delay_ms']`: a ConfigError's dotted field as a YAML path. */
export function fieldPath(field: string): PathSegment[] {
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/**
 * A ConfigError raised by a lab's own fields (a `config:` override, a run's policy) as bad input at that
 * field. Its message already starts with the field, which the position will name: `must be …, got …`.
 */
export function fromConfigError(error: ConfigError): ScenarioInputError {
  const message = error.message.startsWith(`${error.field} `) ? error.message.slice(error.field.length + 1) : error.message;
  return new ScenarioInputError(message, fieldPath(error.field));
}
