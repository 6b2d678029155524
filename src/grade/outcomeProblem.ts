/**
 * A run that produced nothing to judge — it hung, its process died, it could not start — as the problem to
 * tell the learner. The grader's own words: nothing here comes from the learner's process.
 */
import type { RunOutcome } from './job.js';
import type { Problem } from './types.js';
import { msg } from '../render/words/index.js';

export function outcomeProblem(outcome: Exclude<RunOutcome, { kind: 'done' }>, timeoutMs?: number): Problem {
  if (outcome.kind === 'timeout') {
    const where = outcome.step === 0 ? msg('grade.timeout.inConstructor') : msg('grade.timeout.inStep', { step: outcome.step });
    const after = timeoutMs !== undefined ? msg('grade.timeout.after', { ms: timeoutMs }) : msg('grade.timeout.afterUnknown');
    return { id: 'timeout', title: msg('grade.timeout.title', { step: outcome.step }), message: msg('grade.timeout.message', { after, where }) };
  }
  const where = outcome.kind === 'died' ? (outcome.step === 0 ? msg('grade.died.beforeStep1') : msg('grade.died.inStep', { step: outcome.step })) : '';
  if (outcome.kind === 'died' && outcome.protocol !== undefined) {
    return { id: 'process_died', title: msg('grade.died.protocol.title', { where }), message: msg('grade.died.protocol.message', { where, protocol: outcome.protocol }) };
  }
  if (outcome.kind === 'died') {
    const { signal, code } = outcome.exit;
    const how = signal !== null ? msg('grade.died.killedBy', { signal }) : msg('grade.died.exited', { code: String(code) });
    const hint = signal === 'SIGABRT' || signal === 'SIGTRAP' ? msg('grade.died.hint.memory') : signal !== null ? msg('grade.died.hint.killed') : msg('grade.died.hint.exited');
    return { id: 'process_died', title: msg('grade.died.title', { where }), message: msg('grade.died.message', { how, where, hint }) };
  }
  return { id: 'worker_crash', title: outcome.error.name, message: msg('grade.stopped.message', { name: outcome.error.name, message: outcome.error.message }) };
}
