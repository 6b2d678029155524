/**
 * A narrated line, as every renderer takes it: text runs with a tone, a lane (whose side of the picture it
 * belongs to), and — many workers — the worker whose line it is. narrate.ts makes them, renderText.ts and the
 * HTML timeline lay them out.
 */
import type { Tone } from './tone.js';

export type Part = readonly [string, Tone];

/** The sides of the picture: the runner and its event store, the wire between, the tool and its database. */
export type Lane = 'runner' | 'events' | 'wire' | 'tool' | 'db';

export interface Line {
  /** Index of the trace event this line tells. */
  event: number;
  lane: Lane;
  /** A saved event's columns; absent for the lines under it. */
  saved?: { t: number; step: number; seq: number; label: string; labelTone: Tone; calls: number };
  /** A line that carries its own time (a recovery: it happens between steps). */
  t?: number;
  /** 1: a line that explains the one above it (the truth behind an error, a warning), set in a little further. */
  depth?: 1;
  /** What really happened, which the runner cannot see (the HTML page marks it so). */
  truth?: true;
  /** Many workers: whose line it is (a worker, or the sweeper). Absent with one runner. */
  worker?: string;
  parts: Part[];
}

/** A line under a saved event; text that opens with two spaces explains the line above it (depth 1). */
export function note(event: number, lane: Lane, ...parts: Part[]): Line {
  const [first, ...rest] = parts;
  if (first !== undefined && first[0].startsWith('  ')) return { event, lane, depth: 1, parts: [[first[0].trimStart(), first[1]], ...rest] };
  return { event, lane, parts };
}
