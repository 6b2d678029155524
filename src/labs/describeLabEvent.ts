import { describeDurabilityEvent, plural } from '../render/durabilityEvent.js';
import type { EventLine } from '../render/tone.js';
import type { LabTraceEvent } from './types.js';

/**
 * One line of plain English per event of a lab's trace. The pillars' own events read as they read
 * everywhere (src/render/durabilityEvent.ts); this adds the lab's: its steps and notes, its simulated
 * callers, the race's answers, the herd's summaries. Pure; the renderer adds the time and the colour.
 * Undefined for events too many to show one by one (the herd's thousands of attempts: --json has them).
 */
export function describeLabEvent(e: LabTraceEvent): EventLine | undefined {
  switch (e.type) {
    case 'scenario.step':
      return { tone: 'step', text: `▶ ${e.text}` };
    case 'scenario.note':
      return { tone: 'dim', text: `note: ${e.text}` };
    case 'scenario.crash':
      return { tone: 'bad', text: `CRASH: ${e.text}` };
    case 'scenario.recovered':
      return { tone: 'step', text: `RECOVER: ${e.text}` };
    case 'dependency.call': {
      const what =
        e.response === 'ok'
          ? e.effectApplied
            ? 'ok — effect applied'
            : 'ok — already applied under this key: the stored receipt, no new effect'
          : e.response === 'lost_reply'
            ? e.effectApplied
              ? 'effect applied, but the reply is lost'
              : 'already applied under this key, and the reply is lost'
            : `${e.response} — nothing applied`;
      return { tone: e.response === 'ok' ? 'good' : 'bad', text: `${e.dependency} ← ${e.operation} (attempt ${e.attempt}): ${what}` };
    }
    case 'breaker.call':
      return {
        tone: 'plain',
        text: `call ${e.n} → ${e.dependency} ${e.answer === 'held' ? '(if admitted, held in flight: it reports later, or never)' : `(scripted answer: ${e.answer})`}`,
      };
    case 'layer.outcome':
      return { tone: e.kind === 'succeeded' ? 'good' : e.kind === 'duplicate' ? 'warn' : 'bad', text: `⇒ [${e.label}] ${e.kind}: ${e.detail}` };
    case 'lab.outcome':
      return { tone: e.kind === 'new' ? 'good' : e.kind === 'duplicate' ? 'warn' : 'dim', text: `⇒ [${e.label}] ${e.kind}: ${e.detail}` };
    case 'phase.run':
      return { tone: e.effects > 1 ? 'bad' : 'plain', text: `${e.taskId}/${e.phase}: phase work done (${e.effects === 1 ? 'first time' : `time #${e.effects}: done again`})` };
    case 'race.try': {
      const said = ['New', 'Duplicate', 'busy'].includes(e.answer) ? `${e.answer} — ` : '';
      const tone = e.answer === 'New' ? 'good' : e.answer === 'busy' ? 'bad' : e.answer === 'Duplicate' ? 'warn' : 'plain';
      return { tone, text: `${e.protocol} [${e.order}]  ${e.connection}: ${said}${e.text}` };
    }
    case 'herd.summary':
      return {
        tone: 'plain',
        text: `herd ${e.strategy}: the last client (#${e.slowestClient}) is done, after waits of ${e.slowestClientDelaysMs.join(', ')} ms; ${e.totalAttempts} attempts in all, ${plural(e.gaveUp, 'client')} gave up`,
      };
    case 'herd.attempt':
    case 'herd.backoff':
      return undefined; // thousands of them: the herd section summarises; --json has every one
    default:
      return describeDurabilityEvent(e);
  }
}
