/**
 * What the learner prints while a scenario runs (console.log and friends, or process.stdout/stderr) is
 * theirs: it is passed on with the next message to the grader — so that what a hanging run printed before it
 * hung survives the process being killed — and reported with the scenario (Exercism's per-test `output`)
 * instead of landing in the middle of the grader's report. Only installed inside the learner's process.
 */
import { format } from 'node:util';

/** Pass on at most this much per scenario; reporters cap it further (Exercism: 500 characters). */
export const MAX_OUTPUT_CHARS = 64 * 1024;

export interface OutputCapture {
  /** Start counting afresh for the next scenario. */
  reset(): void;
}

/**
 * What a learner's code printed, as it is kept: at most MAX_OUTPUT_CHARS, and whether more was printed and
 * dropped (`cut`: whoever shows it says so, in words).
 */
export interface Printed {
  text: string;
  cut: boolean;
}

export const NOTHING_PRINTED: Printed = Object.freeze({ text: '', cut: false });

/** Route the thread's console and standard streams to `sink`, at most MAX_OUTPUT_CHARS per scenario (`cut` past it). */
export function captureOutput(sink: (text: string, cut: boolean) => void): OutputCapture {
  let sent = 0;
  const append = (chunk: string) => {
    const room = MAX_OUTPUT_CHARS - sent;
    if (room <= 0) return;
    const cut = chunk.length > room;
    sent += chunk.length;
    sink(cut ? chunk.slice(0, room) : chunk, cut);
  };
  for (const method of ['log', 'info', 'debug', 'warn', 'error', 'trace'] as const) {
    console[method] = (...args: unknown[]) => append(format(...args) + '\n');
  }
  const write = (chunk: unknown, ...rest: unknown[]) => {
    append(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  };
  process.stdout.write = write as typeof process.stdout.write;
  process.stderr.write = write as typeof process.stderr.write;
  return {
    reset() {
      sent = 0;
    },
  };
}
