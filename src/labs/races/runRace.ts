/**
 * A race on PostgreSQL, run: its tables made in a schema of their own on the server at `url`, two sessions
 * opened and driven (./play.ts), the file's interleaving played and shown, then every interleaving walked
 * (./explore.ts), the figures read from both and held to the file's `expect:` (src/check/figures). The schema
 * and the connections are gone when it returns, whatever happened.
 */
import { expectationChecks, type Meanings } from '../../check/figures.js';
import { msg } from '../../render/words/index.js';
import { ScenarioInputError } from '../ScenarioInputError.js';
import { exploreAll, type Explored } from './explore.js';
import { answerText, violations } from './invariants.js';
import { ScheduleError, Stage, type Played } from './play.js';
import { BROKEN_FORMS, PROTOCOLS, SESSIONS, type Family, type Setup } from './protocols.js';
import { makeTables } from './tables.js';
import type { RaceRun, RaceScenario } from './types.js';

/** The starting rows when the file gives none: one camera (two buyers want it), three tasks (two workers). */
export const DEFAULT_SETUP: Setup = { stock: 1, tasks: 3 };

export async function runRace(scenario: RaceScenario, url: string): Promise<RaceRun> {
  const protocol = PROTOCOLS[scenario.protocol];
  const setup: Setup = { stock: scenario.stock ?? DEFAULT_SETUP.stock, tasks: scenario.tasks ?? DEFAULT_SETUP.tasks };
  const tables = await makeTables(url);
  try {
    const stage = await Stage.open(tables);
    try {
      let played: Played;
      try {
        played = await stage.play(protocol, setup, scenario.schedule ?? []);
      } catch (error) {
        if (error instanceof ScheduleError) throw new ScenarioInputError(msg(error.why === 'waiting' ? 'race.input.waiting' : 'race.input.done', { turn: error.turn, session: error.session }), ['schedule', error.turn - 1]);
        throw error;
      }
      const broke = violations(protocol.family, setup, played.answers, played.final);
      const explored = await exploreAll(stage, protocol, setup);
      const brokenForms = [];
      for (const name of BROKEN_FORMS[scenario.protocol] ?? []) brokenForms.push({ protocol: name, explored: await exploreAll(stage, PROTOCOLS[name], setup) });
      const figures = {
        ...figuresOf(protocol.family, setup, played, broke.map((v) => v.code), explored),
        ...(brokenForms.length > 0 ? { broken_forms: Object.fromEntries(brokenForms.map((form) => [form.protocol, form.explored.broken])) } : {}),
      };
      const checks = expectationChecks(scenario.expect, figures, meanings());
      return {
        id: scenario.id,
        title: scenario.title,
        explain: scenario.explain,
        ...(scenario.zh !== undefined ? { zh: scenario.zh } : {}),
        protocol: scenario.protocol,
        isolation: protocol.isolation,
        setup,
        schedule: played.turns.map((t) => t.chosen),
        events: played.events,
        answers: played.answers,
        final: played.final,
        broke,
        explored,
        brokenForms,
        figures,
        checks,
        passed: checks.every((c) => c.passed),
      };
    } finally {
      await stage.close();
    }
  } finally {
    await tables.drop();
  }
}

function figuresOf(family: Family, setup: Setup, played: Played, broke: string[], explored: Explored): Record<string, unknown> {
  const { final } = played;
  const answers = Object.fromEntries(SESSIONS.map((s) => [s, answerText(played.answers[s])]));
  const sold = final.reservations.length;
  const own =
    family === 'claim'
      ? { tasks: final.tasks }
      : family === 'ledger'
        ? { stock: final.stock, reservations: sold, ledger: final.ledger }
        : { stock: final.stock, reservations: sold, lost_updates: Math.max(0, sold - (setup.stock - final.stock)), oversold: Math.max(0, sold - setup.stock) };
  return {
    answers,
    ...own,
    broke,
    interleavings: explored.interleavings,
    broken_interleavings: explored.broken,
    first_broken: explored.first === null ? null : explored.first.schedule.join(' '),
  };
}

function meanings(): Meanings {
  return {
    answers: msg('race.meaning.answers'),
    stock: msg('race.meaning.stock'),
    reservations: msg('race.meaning.reservations'),
    lost_updates: msg('race.meaning.lost_updates'),
    oversold: msg('race.meaning.oversold'),
    ledger: msg('race.meaning.ledger'),
    tasks: msg('race.meaning.tasks'),
    broke: msg('race.meaning.broke'),
    interleavings: msg('race.meaning.interleavings'),
    broken_interleavings: msg('race.meaning.broken_interleavings'),
    first_broken: msg('race.meaning.first_broken'),
    broken_forms: msg('race.meaning.broken_forms'),
  };
}
