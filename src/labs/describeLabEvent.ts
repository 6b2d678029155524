import { describeDurabilityEvent } from '../render/durabilityEvent.js';
import type { EventLine } from '../render/tone.js';
import type { LabTraceEvent } from './types.js';
import { said, t, tn, word, type Lang } from '../render/words/index.js';
import type { Param } from '../core/message.js';
import { saidIn } from '../scenario/words.js';

/**
 * One line of plain English per event of a lab's trace. The pillars' own events read as they read
 * everywhere (src/render/durabilityEvent.ts); this adds the lab's: its steps and notes, its callers,
 * the race's answers, the herd's summaries. Pure; the renderer adds the time and the colour.
 * Undefined for events too many to show one by one (the herd's thousands of attempts: --json has them).
 */
export function describeLabEvent(lang: Lang, e: LabTraceEvent): EventLine | undefined {
  const text = (p: Param): string => (typeof p === 'object' ? word(lang, p) : String(p));
  switch (e.type) {
    case 'scenario.step':
      return { tone: 'prepared', text: `▶ ${said(lang, e.text)}` };
    case 'scenario.note':
      return { tone: 'dim', text: t(lang, 'lab.note', { text: typeof e.text === 'string' ? saidIn(e.text, e.zh, lang) : e.text }) };
    case 'breaker.call':
      return {
        tone: 'plain',
        text: t(lang, e.answer === 'held' ? 'lab.call.held' : 'lab.call.scripted', { n: e.n, dependency: e.dependency, answer: e.answer }),
      };
    case 'lab.outcome':
      return { tone: e.kind === 'new' ? 'ok' : e.kind === 'duplicate' ? 'warn' : 'dim', text: `⇒ [${e.label}] ${e.kind}: ${text(e.detail)}` };
    case 'race.try': {
      const answer = ['New', 'Duplicate', 'busy'].includes(e.answer) ? `${e.answer} — ` : '';
      const tone = e.answer === 'New' ? 'ok' : e.answer === 'busy' ? 'bad' : e.answer === 'Duplicate' ? 'warn' : 'plain';
      return { tone, text: `${e.protocol} [${e.order}] ${e.connection}: ${answer}${word(lang, e.text)}` };
    }
    case 'herd.summary':
      return {
        tone: 'plain',
        text: t(lang, 'lab.herd.summary', { strategy: e.strategy, client: e.slowestClient, waits: e.slowestClientDelaysMs.join(', '), attempts: e.totalAttempts, gaveUp: tn(lang, 'lab.n.client', e.gaveUp) }),
      };
    case 'herd.attempt':
    case 'herd.backoff':
      return undefined; // thousands of them: the herd section summarises; --json has every one
    default:
      return describeDurabilityEvent(lang, e);
  }
}
