/**
 * One analysis of a run, read as the lessons read it: what the runner had saved (and whether its process was
 * up), what it was told on each attempt, what was true in the databases — and the label of every save parsed
 * in one place, so no reader of the trace parses one again.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, type Analysis, type Attempt } from '../../src/check/analysis.js';
import { labelText, parseLabel } from '../../src/check/label.js';
import { mutantNamed } from '../../src/mutants/catalogue.js';
import { run } from '../support.js';

const of = async (id: string, options: Parameters<typeof run>[1] = {}) => {
  const r = await run(id, options);
  return { run: r, analysis: analyze(r) };
};
const reserves = (a: Analysis): Attempt[] => a.attempts.filter((x) => x.action.name === 'reserve');
const indexOf = (a: Analysis, type: string) => a.events.findIndex((e) => e.event.type === type);

describe('what the runner had saved', () => {
  it('crash_after_commit: the process is down from the crash to the recovery, and what was saved is the attempt_started state', async () => {
    const { analysis } = await of('crash_after_commit');
    const crash = indexOf(analysis, 'crash');
    const recovered = indexOf(analysis, 'recovered');
    expect(analysis.events.slice(0, crash).every((e) => e.up)).toBe(true);
    expect(analysis.events.slice(crash, recovered).map((e) => e.up)).toEqual(Array(recovered - crash).fill(false));
    const held = analysis.events[crash]!.saved!;
    expect(held).toMatchObject({ label: 'attempt_started', parsed: { kind: 'attempt_started' }, how: 'saved' });
    expect(held.state).toMatchObject({ calls: 4, attempts: 1, pending: { name: 'reserve' } });
    // The new process reads that same record back, counts attempt 2 after it, and only then sends.
    expect(analysis.events[recovered]).toMatchObject({ up: true, saved: { seq: held.seq, how: 'recovered', label: 'attempt_started' } });
    const retry = reserves(analysis)[1]!;
    expect(retry.saved).toMatchObject({ seq: held.seq + 1, how: 'saved', state: { attempts: 2 } });
    expect(retry.pending).toEqual(held.state.pending);
  });

  it('holds nothing before the first save; a save is seen after its event, not before', async () => {
    const { analysis } = await of('happy_path');
    const first = indexOf(analysis, 'saved');
    expect(analysis.events[first]!.before).toBeNull();
    expect(analysis.events[first]!.saved).toMatchObject({ label: 'started', parsed: { kind: 'started' } });
  });

  it('every attempt of the reference leaves under its own attempt_started, counted', async () => {
    const { analysis } = await of('lost_reply');
    for (const attempt of analysis.attempts) {
      expect(attempt.saved?.parsed.kind).toBe('attempt_started');
      expect(attempt.saved?.state).toMatchObject({ calls: attempt.call, attempts: attempt.attempt });
      expect(attempt.pending).toEqual(attempt.action);
    }
  });

  it('a runner that makes a new key per attempt sends what it saved, but not what the log saved first for the decision', async () => {
    const { analysis } = await of('lost_reply', { runner: mutantNamed('new_key_per_attempt')!.runner });
    const [first, second] = analysis.attemptsByDecision.get('0:4')!;
    expect(first!.state.pending!.args.key).not.toBe(second!.state.pending!.args.key);
    expect([first!.call, second!.call]).toEqual([4, 5]);
  });
});

describe('what the runner was told', () => {
  it('lost_reply: the tool committed attempt 1 of reserve while the runner was told INDEFINITE; attempt 2 was answered from the ledger', async () => {
    const { analysis } = await of('lost_reply');
    const [first, second] = reserves(analysis);
    expect(first).toMatchObject({ attempt: 1, effect: 'committed', told: { delivered: true, outcome: { ok: false, error: { class: 'TransientError', message: 'lost_reply', certainty: 'indefinite' } } } });
    expect(first!.changes.map((c) => c.truth.kind)).toEqual(['changed']);
    expect(second).toMatchObject({ attempt: 2, effect: 'ledger', told: { outcome: { ok: true } } });
  });

  it('transient_read: an unavailable tool is a DEFINITE failure — the tool did nothing', async () => {
    const { analysis } = await of('transient_read');
    const failed = analysis.attempts.find((a) => a.told?.outcome.ok === false)!;
    expect(failed).toMatchObject({ effect: 'nothing', told: { outcome: { error: { certainty: 'definite', message: 'unavailable' } } } });
  });

  it('payload_conflict: a refusal is a ContractError, definite, and changes nothing', async () => {
    const { analysis } = await of('payload_conflict');
    const refused = analysis.attempts.at(-1)!;
    expect(refused).toMatchObject({ effect: 'refused', told: { outcome: { error: { class: 'ContractError', certainty: 'definite' } } } });
  });

  it('a duplicate delivery belongs to the one attempt: its first reply never reached the runner, the second is what it was told', async () => {
    const { analysis } = await of('happy_path', { extraFaults: [{ kind: 'duplicate_delivery', at: { tool: 'reserve', attempt: 1 } }] });
    const [reserve] = reserves(analysis);
    expect(reserve!.secondAt).toBeGreaterThan(reserve!.at);
    expect(reserve!.replies.map((r) => r.delivered)).toEqual([false, true]);
    expect(reserve!.told).toBe(reserve!.replies[1]);
    expect(reserve!.changes.map((c) => c.truth.kind)).toEqual(['changed', 'ledger']);
  });

  it('a save names the attempts told since the previous save: the transient save follows the lost reply', async () => {
    const { analysis } = await of('lost_reply');
    const transient = analysis.events.find((e) => e.saved?.parsed.kind === 'transient' && e.event.type === 'saved')!;
    expect(transient.toldBefore).toEqual([reserves(analysis)[0]]);
  });
});

describe('what was true in the databases', () => {
  it('lost_reply: the rows change once, at the commit the runner never heard of', async () => {
    const { run: r, analysis } = await of('lost_reply');
    const changed = analysis.events.filter((e) => e.rowsChanged);
    expect(changed).toHaveLength(1);
    expect(analysis.rows[changed[0]!.rows]!.ledger).toHaveLength(1);
    expect(analysis.rows[analysis.events.at(-1)!.rows]).toEqual(r.db);
  });

  it('crash_after_commit: at the crash, the commit is what the tool did that the runner never saved; the next save clears it', async () => {
    const { analysis } = await of('crash_after_commit');
    const crash = indexOf(analysis, 'crash');
    expect(analysis.events[crash]!.unsaved?.kind).toBe('changed');
    const nextSave = analysis.events.findIndex((e, i) => i > crash && e.event.type === 'saved');
    expect(analysis.events[nextSave]!.unsaved).toBeNull();
  });

  it('crash_before_commit: the change inside the transaction is rolled back and never reaches the rows', async () => {
    const { analysis } = await of('crash_before_commit');
    const db = analysis.events.find((e) => e.truth?.kind === 'rolled_back')!;
    expect(db.rowsChanged).toBe(false);
    expect(db.attempt?.effect).toBe('rolled_back');
    expect(analysis.rows).toHaveLength(2); // the initial rows, then the retry's one commit
  });

  it('the log reaches the highest event saved so far', async () => {
    const { run: r, analysis } = await of('crash_after_commit');
    expect(analysis.events.at(-1)!.logReach).toBe(r.log.at(-1)!.seq);
  });
});

describe('a replay of a dead letter', () => {
  it('starts a new delivery with its own call budget; its first attempt carries the dead letter and meets the receipt', async () => {
    const { run: r, analysis } = await of('lost_reply_dead_letter_replay');
    expect(analysis.requestsPerDelivery).toEqual([4, 1]);
    const replay = indexOf(analysis, 'replay');
    expect(analysis.events[replay]!.delivery).toBe(1);
    const [, again] = reserves(analysis);
    expect(again).toMatchObject({ delivery: 1, replayOf: r.replays[0]!.dlqId, effect: 'ledger', attempt: 1, call: 5 });
    const replayed = analysis.log.find((e) => e.parsed.kind === 'replay')!;
    expect(replayed).toMatchObject({ delivery: 1, label: `replay:${r.replays[0]!.dlqId}` });
    expect(analysis.log.at(-1)!.call).toBe(r.replays[0]!.callsBefore + r.state!.calls);
  });
});

describe('labels', () => {
  it.each([
    ['started', { kind: 'started' }],
    ['prepared', { kind: 'prepared' }],
    ['attempt_started', { kind: 'attempt_started' }],
    ['observed', { kind: 'observed' }],
    ['transient:lost_reply', { kind: 'transient', message: 'lost_reply' }],
    ['transient:', { kind: 'transient', message: '' }],
    ['succeeded', { kind: 'terminal', status: 'succeeded' }],
    ['retry_exhausted', { kind: 'terminal', status: 'retry_exhausted' }],
    ['replay:dlq_1', { kind: 'replay', dlqId: 'dlq_1' }],
    ['my_own_label', { kind: 'other', label: 'my_own_label' }],
    ['running', { kind: 'other', label: 'running' }],
  ])('%s parses as its kind, and reads back as saved', (label, parsed) => {
    expect(parseLabel(label)).toEqual(parsed);
    expect(labelText(parseLabel(label))).toBe(label);
  });

  it('are parsed nowhere else among the trace’s readers', async () => {
    const root = resolve(import.meta.dirname, '..', '..', 'src');
    const readers = [
      ...readdirSync(join(root, 'check')).filter((f) => f !== 'label.ts').map((f) => join(root, 'check', f)),
      ...readdirSync(join(root, 'render', 'html')).map((f) => join(root, 'render', 'html', f)),
      ...['grade/mistakes.ts', 'grade/divergence.ts', 'grade/diagnose.ts', 'render/narrate.ts'].map((f) => join(root, f)),
    ];
    const parses = /startsWith\('(transient|replay):'\)|'(transient|replay):'|label\s*[!=]==\s*'/;
    expect(readers.filter((file) => parses.test(readFileSync(file, 'utf8')))).toEqual([]);
  });
});
