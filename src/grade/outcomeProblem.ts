/**
 * A run that produced nothing to judge — it hung, its process died, it could not start — as the problem to
 * tell the learner. The grader's own words: nothing here comes from the learner's process.
 */
import type { RunOutcome } from './job.js';
import type { Problem } from './types.js';
import { t } from '../core/i18n/index.js';

export function outcomeProblem(outcome: Exclude<RunOutcome, { kind: 'done' }>, timeoutMs?: number): Problem {
  if (outcome.kind === 'timeout') {
    const where = outcome.step === 0 ? t('grade.timeout.inConstructor') : t('grade.timeout.inStep', { step: outcome.step });
    const after = timeoutMs !== undefined ? t('grade.timeout.after', { ms: timeoutMs }) : t('grade.timeout.afterUnknown');
    return { id: 'timeout', title: t('grade.timeout.title', { step: outcome.step }), message: t('grade.timeout.message', { after, where }) };
  }
  const where = outcome.kind === 'died' ? (outcome.step === 0 ? t('grade.died.beforeStep1') : t('grade.died.inStep', { step: outcome.step })) : '';
  if (outcome.kind === 'died' && outcome.protocol !== undefined) {
    return { id: 'process_died', title: t('grade.died.protocol.title', { where }), message: t('grade.died.protocol.message', { where, protocol: outcome.protocol }) };
  }
  if (outcome.kind === 'died') {
    const { signal, code } = outcome.exit;
    const how = signal !== null ? t('grade.died.killedBy', { signal }) : t('grade.died.exited', { code: String(code) });
    const hint = signal === 'SIGABRT' || signal === 'SIGTRAP' ? t('grade.died.hint.memory') : signal !== null ? t('grade.died.hint.killed') : t('grade.died.hint.exited');
    return { id: 'process_died', title: t('grade.died.title', { where }), message: t('grade.died.message', { how, where, hint }) };
  }
  return { id: 'worker_crash', title: outcome.error.name, message: t('grade.stopped.message', { name: outcome.error.name, message: outcome.error.message }) };
}
