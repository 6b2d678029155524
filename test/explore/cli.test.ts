/** `faultlab explore` as a script sees it: one JSON document, exit codes, replay commands that work. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/core/paths.js';
import { cli } from '../support.js';
import { tempDir } from './helpers.js';

const BROKEN = join(PACKAGE_ROOT, 'test', 'fixtures', 'learners', 'NewKeyPerAttempt.ts');

describe('faultlab explore', () => {
  it('prints the report with coverage and exits 0 when no schedule breaks an invariant', async () => {
    const out = await cli(['explore', 'happy_path', 'lost_reply', '--workers', '1', '--out', tempDir()]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('\n   1  happy_path                         51         4      38/50  0\n');
    expect(out.stdout).toContain('110 schedules (2 scenarios as written, 108 with one added fault)');
    expect(out.stdout).toMatch(/crash_after_event +30 \/ 30\n/);
    expect(out.stdout).toContain("never fired: 4 past the run's last call");
    expect(out.stdout).toContain('✔ No schedule broke an invariant.');
    expect(out.stderr).toBe(''); // no progress bar when stderr is not a terminal
  });

  it('prints one JSON document with runs, violations, outcomes and coverage', async () => {
    const out = await cli(['explore', 'happy_path', '--json', '--workers', '1', '--out', tempDir()]);
    expect(out.code).toBe(0);
    const doc = JSON.parse(out.stdout);
    expect(Object.keys(doc)).toEqual(expect.arrayContaining(['runs', 'violations', 'outcomes', 'coverage']));
    expect(doc.runs).toBe(51);
    expect(doc.violations).toEqual([]);
    expect(doc.coverage).toEqual({ concurrent_reserve: 4, transient: 4, crash_before_commit: 4, duplicate_delivery: 4, crash_after_commit: 4, lost_reply: 4, crash_after_event: 14 });
    expect(doc.outcomes.happy_path['succeeded · 4 calls · 1 ledger row · camera 2']).toBeGreaterThan(1);
    expect(Object.values(doc.outcomes.happy_path as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(51);
  });

  it('finds a broken runner file, writes the minimal replay and prints the command that fails it, exit 1', async () => {
    const dir = tempDir();
    const out = await cli(['explore', 'happy_path', '--runner', BROKEN, '--json', '--workers', '1', '--out', dir]);
    expect(out.code).toBe(1);
    const doc = JSON.parse(out.stdout);
    expect(doc.violations).toHaveLength(1);
    const [v] = doc.violations;
    expect(v).toMatchObject({ scenario: 'happy_path', invariant: 'inv3_same_key_same_args', schedule: [{ kind: 'transient', at: { tool: 'reserve', attempt: 1, call: 4 } }] });
    expect(v.message).toContain('a retry must reuse the key made when the action was prepared');
    const file = join(dir, 'happy_path__inv3.yaml');
    expect(v.replay).toBe(`faultlab run ${file} --runner test/fixtures/learners/NewKeyPerAttempt.ts`); // paths as typed from the cwd
    expect(readFileSync(file, 'utf8').split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=.*scenarios\/scenario\.schema\.json$/);

    const argv = (v.replay as string).split(' ').slice(1);
    const replay = await cli(argv);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain('⚡ fault transient at reserve attempt 1 call 4');
    expect(replay.stdout).toContain('✘ inv3 every attempt of a pending action used its key and args');
  });

  it('explains the mutants: which fixed scenario and which explored schedule caught each, as JSON', async () => {
    const out = await cli(['explore', '--mutants', '--json', '--out', tempDir()]);
    expect(out.code).toBe(0);
    const { mutants } = JSON.parse(out.stdout) as { mutants: Array<Record<string, unknown>> };
    expect(mutants).toHaveLength(10);
    for (const m of mutants) expect(Object.keys(m)).toEqual(['name', 'caught', 'invariant', 'scenario', 'schedule']);
    expect(mutants.every((m) => m.caught === true)).toBe(true);
    expect(mutants[0]).toMatchObject({
      name: 'new_key_per_attempt',
      invariant: 'inv3_same_key_same_args',
      scenario: 'lost_reply',
      schedule: { scenario: 'happy_path', invariant: 'inv3_same_key_same_args' },
    });
  }, 60_000);

  it('refuses a bad depth with exit 2', async () => {
    const out = await cli(['explore', '--depth', '3']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--depth must be 1 or 2, got "3"');
  });
});
