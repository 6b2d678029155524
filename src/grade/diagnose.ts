/**
 * From a learner's finished run to the one thing to tell them first. An exception comes first (with the
 * step and the line in their file); then the mistake that made the run fail, read from the trace
 * (mistakes.ts: a new key on a retry, a ContractError retried, a crash caught…), named with the invariant it
 * broke; an invariant broken by no mistake the trace shows is told by its own rule; then the scenario's
 * figures, and last a fault the run never reached. The same reading serves the grader and the classroom
 * assertions.
 */
import { isRule } from '../check/verdict.js';
import type { Check } from '../check/types.js';
import type { Scenario } from '../scenario/types.js';
import type { RunResult } from '../check/RunResult.js';
import { formatValue } from '../render/format.js';
import { describeFault, listOfFaults } from '../faults/types.js';
import { isBrokenScenario } from '../check/scenarioIntegrity.js';
import { msg } from '../render/words/index.js';
import { joined, type Message, type Param } from '../core/message.js';
import { divergenceMistake, explainingMistake, MISTAKES, type Mistake } from './mistakes.js';
import type { Divergence } from './divergence.js';
import { LABEL_PREFIX } from '../check/label.js';
import type { Problem, ProblemId } from './types.js';

/** The faults of a run that never fired, as the check names them. */
function unfiredFaults(run: RunResult): Message {
  return listOfFaults(run.faults.filter((f) => f.firedAt === null).map((f) => describeFault(f.spec)));
}

/** `inv3 every attempt of a pending action used its key and args`: how the trace's check list names it. */
export function checkTitle(check: Check): Message {
  return check.kind === 'invariant' ? msg('grade.title.invariant', { inv: check.id.replace(/_.*/, ''), title: check.title }) : check.title;
}

/** `calls expected 5, got 6` for each scenario figure the run got wrong. */
export function wrongFigures(run: RunResult): Message[] {
  return run.checks
    .filter((c) => c.kind === 'expectation' && !c.passed)
    .map((c) => msg('grade.figure.wrong', { title: c.title, expected: formatValue(c.expected), actual: formatValue(c.actual) }));
}

/** What the scenario expects, in the words `figures()` uses for what the run got. */
export function expectedFigures(scenario: Scenario): Param {
  const e = scenario.expect;
  const parts: Param[] = [];
  if (e.status !== undefined) parts.push(e.status);
  if (e.calls !== undefined) parts.push(msg('trace.figure.calls', { n: e.calls }));
  if (e.ledger !== undefined) parts.push(msg('trace.figure.ledger', { n: e.ledger }));
  for (const [item, n] of Object.entries(e.stock ?? {})) parts.push(msg('trace.figure.stock', { item, n }));
  return joined('trace.figures.and', parts);
}

/** The first frame of a stack that lies in `file`, as `path:line` (path as `display` gives it). */
export function locate(stack: string | undefined, file: string | undefined, display: (path: string) => string): string | undefined {
  if (stack === undefined || file === undefined) return undefined;
  for (const line of stack.split('\n')) {
    const at = line.indexOf(file);
    if (at === -1) continue;
    // A module loaded through tsx may carry a query (`?tsx-namespace=…`) after its path.
    const m = /^(.*?)(?:\?[^:]*)?:(\d+)(?::\d+)?\)?$/.exec(line.slice(at));
    if (m) return `${display(m[1]!)}:${m[2]}`;
  }
  return undefined;
}

function exceptionProblem(run: RunResult, learnerFile: string | undefined, display: (path: string) => string): Problem | null {
  const error = run.runnerError;
  if (error === null) return null;
  if (error.name === 'TransientError') return transientThrown(run, error, locate(error.stack, learnerFile, display));
  const id: ProblemId =
    error.name === 'NotImplementedError' ? 'not_implemented' : error.name === 'DeterminismError' ? 'determinism' : 'runner_error';
  const where = locate(error.stack, learnerFile, display);
  return {
    id,
    title: msg('grade.thrown.title', { name: error.name, step: error.step }),
    message: where
      ? msg('grade.thrown.messageAt', { name: error.name, step: error.step, where, message: error.message })
      : msg('grade.thrown.message', { name: error.name, step: error.step, message: error.message }),
    ...(where ? { where } : {}),
    thrown: error.message,
  };
}

/**
 * A TransientError thrown out of step, told as the throw it is (the step, the line in the learner's file) and named:
 * thrown although the step had retried other TransientErrors (told apart by their message text), or thrown as a bug.
 */
function transientThrown(run: RunResult, error: NonNullable<RunResult['runnerError']>, where: string | undefined): Problem {
  const retried = [
    ...new Set(run.trace.flatMap((event) => (event.type === 'saved' && event.label.startsWith(LABEL_PREFIX.transient) ? [event.label.slice(LABEL_PREFIX.transient.length)] : []))),
  ];
  const params = { step: error.step, message: error.message, where: where ?? msg('grade.mistake.noLine'), handled: retried.join(', ') };
  const [id, title, message]: [ProblemId, Message, Message] =
    retried.length > 0
      ? ['transient_by_message', msg('grade.mistake.transientByMessage.title', { step: error.step }), msg('grade.mistake.transientByMessage', params)]
      : ['transient_thrown', msg('grade.mistake.transientThrown.title', { step: error.step }), msg('grade.mistake.transientThrown', params)];
  return { id, title, message, ...(where ? { where } : {}), thrown: error.message };
}

/** A mistake as the problem to tell: named with the invariant it broke, when it broke one. */
function mistakeProblem(mistake: Mistake, failed: readonly Check[]): Problem {
  const check = failed.find((c) => MISTAKES[mistake.id].explains.includes(c.id));
  const title = check?.kind === 'invariant' ? msg('grade.title.mistake', { inv: check.id.replace(/_.*/, ''), title: mistake.title }) : mistake.title;
  return { id: mistake.id, title, message: mistake.message, ...(check !== undefined ? { check: check.id } : {}) };
}

/**
 * The first problem of a run, or null when every check held. `only`: read the run for these checks alone (an
 * explored schedule is judged by the invariants, not by the figures the scenario expects without its fault).
 */
export function firstProblem(
  run: RunResult,
  learnerFile?: string,
  display: (path: string) => string = (p) => p,
  only?: readonly string[],
  /** Where the run first parts from the reference's: a mistake no trace shows may be read from it. */
  divergence: Divergence | null = null,
): Problem | null {
  // A thrown error is always told as the throw it is — an explored schedule's too, whichever rule its run then broke.
  const thrown = exceptionProblem(run, learnerFile, display);
  if (thrown !== null) return thrown;
  const failed = run.checks.filter((c) => !c.passed && (only === undefined || only.includes(c.id)));
  if (failed.length === 0) return null;
  const mistake = explainingMistake(run, failed.map((c) => c.id)) ?? (failed.some((c) => isRule(c.id)) ? null : divergenceMistake(divergence));
  if (mistake !== null) return mistakeProblem(mistake, failed);
  const invariant = failed.find((c) => isRule(c.id));
  if (invariant) return { id: invariant.id as ProblemId, title: checkTitle(invariant), message: invariant.message, check: invariant.id };
  const figure = failed.find((c) => c.kind === 'expectation');
  if (figure) {
    const id = (figure.id.startsWith('stock.') ? 'stock' : figure.id.startsWith('workers.') ? 'workers' : figure.id) as ProblemId;
    return { id, title: figure.title, message: figure.message };
  }
  const unfired = failed.find((c) => c.id === 'faults_fired');
  if (unfired) {
    // A broken scenario's message says it tested nothing there, which the sentence below says again: then only the
    // faults are named. Told from the run (the same test the check makes), never from the message's words.
    const what = isBrokenScenario(run) ? unfiredFaults(run) : unfired.message;
    return { id: 'fault_not_reached', title: msg('grade.faultNotReached.title'), message: msg('grade.faultNotReached.message', { what }) };
  }
  return null;
}
