/**
 * The fault catalogue of SPEC §5. A fault names a kind and a point; the harness consults the plan at
 * that point and records what fired.
 */
export const ATTEMPT_FAULT_KINDS = [
  'concurrent_reserve',
  'transient',
  'crash_before_commit',
  'duplicate_delivery',
  'crash_after_commit',
  'lost_reply',
] as const;
/** Listed in the order they apply when several hit one attempt (SPEC §5). */
export type AttemptFaultKind = (typeof ATTEMPT_FAULT_KINDS)[number];
export type FaultKind = AttemptFaultKind | 'crash_after_event';
export const FAULT_KINDS: readonly FaultKind[] = [...ATTEMPT_FAULT_KINDS, 'crash_after_event'];

/**
 * Where a fault strikes. Every field given must match; fields left out match anything.
 * - attempt faults: `tool` (the pending action's name), `attempt` (its attempt number), `call` (global call number);
 * - crash_after_event: `label` (e.g. `prepared`), `seq` (the event's row number in the log), `tool` (the pending action).
 */
export interface FaultPoint {
  tool?: string;
  attempt?: number;
  call?: number;
  label?: string;
  seq?: number;
}

export interface FaultSpec {
  kind: FaultKind;
  at: FaultPoint;
  /** concurrent_reserve only: how many units the other client reserves (default 1). */
  qty?: number;
}

export function describePoint(fault: FaultSpec): string {
  const { tool, attempt, call, label, seq } = fault.at;
  const parts: string[] = [];
  if (fault.kind === 'crash_after_event') {
    if (label !== undefined) parts.push(`event ${label}`);
    if (seq !== undefined) parts.push(`event #${seq}`);
    if (tool !== undefined) parts.push(`of ${tool}`);
  } else {
    if (tool !== undefined) parts.push(tool);
    if (attempt !== undefined) parts.push(`attempt ${attempt}`);
    if (call !== undefined) parts.push(`call ${call}`);
  }
  return parts.length > 0 ? parts.join(' ') : 'any point';
}

export function describeFault(fault: FaultSpec): string {
  const qty = fault.kind === 'concurrent_reserve' && fault.qty !== undefined ? ` (qty ${fault.qty})` : '';
  const where = fault.kind === 'crash_after_event' ? 'after' : 'at';
  return `${fault.kind}${qty} ${where} ${describePoint(fault)}`;
}

/** A scenario's faults in a few words; the same fault at consecutive attempts reads "attempts 1–3". */
export function describeFaults(faults: readonly FaultSpec[]): string {
  if (faults.length === 0) return 'no fault';
  const parts: string[] = [];
  for (let i = 0; i < faults.length; ) {
    const f = faults[i]!;
    let j = i + 1;
    const run = (g: FaultSpec, n: number) =>
      g.kind === f.kind && g.at.tool === f.at.tool && g.at.call === undefined && f.at.call === undefined && g.qty === f.qty &&
      g.at.attempt !== undefined && f.at.attempt !== undefined && g.at.attempt === f.at.attempt + n && g.kind !== 'crash_after_event';
    while (j < faults.length && run(faults[j]!, j - i)) j += 1;
    if (j - i >= 2) parts.push(`${f.kind} at ${f.at.tool ?? 'any tool'} attempts ${f.at.attempt}–${f.at.attempt! + (j - i - 1)}`);
    else parts.push(describeFault(f));
    i = j;
  }
  return parts.join('; ');
}
