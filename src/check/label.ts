/**
 * A saved event's label, as data. The runner names what it saved with free text (`prepared`,
 * `transient:lost_reply`, `replay:dlq_1`, a terminal status, or whatever a learner's runner chose); this is
 * the one place that text is read. parseLabel is total and `labelText(parseLabel(s)) === s` for every string,
 * so a reader may switch on the kind and still show the label exactly as saved.
 */
import { TERMINAL_STATUSES, type TerminalStatus } from '../scenario/types.js';

export type Label =
  | { kind: 'started' }
  | { kind: 'prepared' }
  | { kind: 'attempt_started' }
  | { kind: 'observed' }
  /** The attempt failed with a TransientError: its message (`unavailable`, `lost_reply`, `circuit_open`). */
  | { kind: 'transient'; message: string }
  /** The run ended with this status. */
  | { kind: 'terminal'; status: TerminalStatus }
  /** A dead letter's intent, pending again in a fresh runner. */
  | { kind: 'replay'; dlqId: string }
  /** The whole task delivered again, to a fresh runner from its first state (docs/spec.md §13). */
  | { kind: 'redelivered' }
  /** A label the reference runner never saves (a learner's own). */
  | { kind: 'other'; label: string };

export type LabelKind = Label['kind'];

/** The two labels that carry a detail after their prefix. */
export const LABEL_PREFIX = { transient: 'transient:', replay: 'replay:' } as const;

const EXACT: ReadonlyMap<string, Label> = new Map<string, Label>([
  ['started', { kind: 'started' }],
  ['prepared', { kind: 'prepared' }],
  ['attempt_started', { kind: 'attempt_started' }],
  ['observed', { kind: 'observed' }],
  ['redelivered', { kind: 'redelivered' }],
  ...TERMINAL_STATUSES.map((status): [string, Label] => [status, { kind: 'terminal', status }]),
]);

export function parseLabel(label: string): Label {
  const exact = EXACT.get(label);
  if (exact !== undefined) return exact;
  if (label.startsWith(LABEL_PREFIX.transient)) return { kind: 'transient', message: label.slice(LABEL_PREFIX.transient.length) };
  if (label.startsWith(LABEL_PREFIX.replay)) return { kind: 'replay', dlqId: label.slice(LABEL_PREFIX.replay.length) };
  return { kind: 'other', label };
}

/** The label as the runner saved it. */
export function labelText(label: Label): string {
  switch (label.kind) {
    case 'transient':
      return `${LABEL_PREFIX.transient}${label.message}`;
    case 'replay':
      return `${LABEL_PREFIX.replay}${label.dlqId}`;
    case 'terminal':
      return label.status;
    case 'other':
      return label.label;
    default:
      return label.kind;
  }
}
