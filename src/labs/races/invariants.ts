/**
 * What each family of races must never do, judged from the answers the sessions were given and the tables at
 * the end — the same rule for every interleaving, so the explorer can count the ones that break it.
 * - reserve: every reservation took its camera from the stock (no lost update: reservations = start − stock),
 *   the stock never went below zero nor were more sold than there were, and every buyer was answered
 *   (reserved, or out of stock), not left with an error nobody retried.
 * - ledger: one request, one effect (at most one reservation for its key), and both sends answered with that
 *   reservation.
 * - claim: no task handed to two workers, and no worker told "nothing ready" while a task was.
 */
import type { Answer, Family, SessionName, Setup } from './protocols.js';
import type { Final } from './tables.js';

export type Violation =
  | { code: 'lost_update'; lost: number }
  | { code: 'oversold'; sold: number; stock: number }
  | { code: 'unanswered'; session: SessionName; error: string }
  | { code: 'double_effect'; effects: number }
  | { code: 'wrong_answer'; session: SessionName; answer: Answer; expected: string }
  | { code: 'double_claim'; task: number }
  | { code: 'idle_while_ready'; session: SessionName };

/** An answer in a few stable words (figures and traces compare these). */
export function answerText(answer: Answer): string {
  switch (answer.kind) {
    case 'reserved':
      return `reserved ${answer.reservation}`;
    case 'duplicate':
      return `duplicate ${answer.reservation}`;
    case 'claimed':
      return `claimed ${answer.task}`;
    case 'error':
      return `error ${answer.code}`;
    default:
      return answer.kind;
  }
}

export function violations(family: Family, setup: Setup, answers: Record<SessionName, Answer>, final: Final): Violation[] {
  const found: Violation[] = [];
  const sessions = Object.keys(answers).sort() as SessionName[];
  if (family === 'reserve') {
    const sold = final.reservations.length;
    const lost = sold - (setup.stock - final.stock);
    if (lost > 0) found.push({ code: 'lost_update', lost });
    if (final.stock < 0 || sold > setup.stock) found.push({ code: 'oversold', sold, stock: final.stock });
    for (const session of sessions) {
      const answer = answers[session];
      if (answer.kind === 'error') found.push({ code: 'unanswered', session, error: answer.code });
    }
  } else if (family === 'ledger') {
    if (final.reservations.length > 1) found.push({ code: 'double_effect', effects: final.reservations.length });
    const expected = final.reservations[0] ?? '-';
    for (const session of sessions) {
      const answer = answers[session];
      const names = answer.kind === 'reserved' || answer.kind === 'duplicate' ? answer.reservation : null;
      if (names !== expected) found.push({ code: 'wrong_answer', session, answer, expected });
    }
  } else {
    const claimed = sessions.flatMap((s) => (answers[s].kind === 'claimed' ? [(answers[s] as { task: number }).task] : []));
    const twice = claimed.find((task, i) => claimed.indexOf(task) !== i);
    if (twice !== undefined) found.push({ code: 'double_claim', task: twice });
    const stillReady = Object.values(final.tasks).some((by) => by === null);
    for (const session of sessions) {
      const answer = answers[session];
      if (answer.kind === 'nothing_ready' && stillReady) found.push({ code: 'idle_while_ready', session });
      if (answer.kind === 'error') found.push({ code: 'unanswered', session, error: answer.code });
    }
  }
  return found;
}
