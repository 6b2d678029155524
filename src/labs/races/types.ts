import type { Check } from '../../check/types.js';
import type { ScenarioWords } from '../../scenario/words.js';
import type { Explored } from './explore.js';
import type { Violation } from './invariants.js';
import type { RaceEvent } from './play.js';
import type { Answer, ProtocolName, SessionName, Setup } from './protocols.js';
import type { Final } from './tables.js';

/**
 * A race on PostgreSQL (`kind: postgres_race`, scenarios/postgres/*.yaml, validated against
 * scenarios/postgres/race.schema.json) goes in, a RaceRun comes out: the interleaving the file shows, played
 * statement by statement, then the tally of every interleaving of the same two programs. The same file gives the
 * same run, every time: no seed decides anything.
 */
export interface RaceScenario {
  kind: 'postgres_race';
  id: string;
  title: string;
  explain: string;
  zh?: ScenarioWords;
  protocol: ProtocolName;
  stock?: number;
  tasks?: number;
  schedule?: SessionName[];
  expect: Record<string, unknown>;
}

export interface RaceRun {
  id: string;
  title: string;
  explain: string;
  zh?: ScenarioWords;
  protocol: ProtocolName;
  isolation: string;
  setup: Setup;
  /** The interleaving shown, turn by turn (its schedule completed: A before B past the file's). */
  schedule: SessionName[];
  events: RaceEvent[];
  answers: Record<SessionName, Answer>;
  final: Final;
  /** What the interleaving shown broke (empty: it held). */
  broke: Violation[];
  explored: Explored;
  /** For a fix: each of its broken forms (./protocols.ts BROKEN_FORMS), explored the same way. */
  brokenForms: Array<{ protocol: ProtocolName; explored: Explored }>;
  figures: Record<string, unknown>;
  checks: Check[];
  passed: boolean;
}
