/** Tiny helpers that hide set-up noise, so each test reads like the lesson it checks. */
import { formatProblem, type ScenarioError } from '../src/scenario/ScenarioError.js';
import { said, word, type Lang } from '../src/render/words/index.js';
import { saidOf } from '../src/core/message.js';
import { main } from '../src/cli/main.js';
import type { Io } from '../src/cli/io.js';
import { loadScenario } from '../src/scenario/load.js';
import type { Scenario } from '../src/scenario/types.js';
import { judge } from '../src/check/verdict.js';
import type { RunResult } from '../src/check/RunResult.js';
import { simulate, type SimulateOptions } from '../src/sim/simulate.js';
import type { TraceEvent, TraceEventOf } from '../src/sim/events.js';

const cache = new Map<string, Scenario>();

/** One of the 17 fixed scenarios, by id. */
export function scenario(id: string): Scenario {
  let s = cache.get(id);
  if (s === undefined) {
    s = loadScenario(id);
    cache.set(id, s);
  }
  return structuredClone(s);
}

/** Simulate a scenario and judge the run: the checks included. */
export async function judged(s: Scenario, options: SimulateOptions = {}): Promise<RunResult> {
  return judge(await simulate(s, options));
}

/** Run a fixed scenario (in memory unless told otherwise: the crash model is the same). */
export function run(id: string, options: SimulateOptions = {}): Promise<RunResult> {
  return judged(scenario(id), { storage: 'memory', ...options });
}

export function camera(run: RunResult): number | undefined {
  return run.db.items.find((row) => row.item_id === 'camera')?.available;
}

export function events<K extends TraceEvent['type']>(run: RunResult, type: K): Array<TraceEventOf<K>> {
  return run.trace.filter((e): e is TraceEventOf<K> => e.type === type);
}

export function failedChecks(run: RunResult): string[] {
  return run.checks.filter((c) => !c.passed).map((c) => c.id);
}

export interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI in-process, as a script would (stdout not a terminal) unless told otherwise. */
export async function cli(argv: string[], options: { env?: Record<string, string>; isTTY?: boolean; columns?: number } = {}): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: options.env ?? {},
    isTTY: options.isTTY ?? false,
    ...(options.columns !== undefined ? { columns: options.columns } : {}),
    cwd: process.cwd(),
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** A ScenarioError's problems as the CLI prints them, `file:line:col: field: what is wrong`, worded in `lang`. */
export function problemLines(error: ScenarioError, lang: Lang = 'en'): string[] {
  return error.problems.map((problem) => formatProblem(problem, said(lang, problem.message)));
}

/** What `fn` throws, as a user reads it: the error's message worded in `lang` when faultlab made it (a ConfigError…), else its own. */
export function thrownWords(fn: () => unknown, lang: Lang = 'en'): string {
  try {
    fn();
  } catch (error) {
    const made = saidOf(error);
    return made !== undefined ? word(lang, made) : (error as Error).message;
  }
  throw new Error('nothing was thrown');
}
