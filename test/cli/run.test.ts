/** stdout is a contract: the trace, the summary, --json with nothing else, and exit codes that mean something. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import { cli } from '../support.js';

const ESC = /\x1b\[/;
const dir = mkdtempSync(join(tmpdir(), 'faultlab-cli-'));
const variant = (name: string, edit: (text: string) => string) => {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, edit(readFileSync(join(SCENARIOS_DIR, 'lost_reply.yaml'), 'utf8')));
  return path;
};

describe('faultlab run', () => {
  it('prints each trace and a summary of the 17, and exits 0', async () => {
    const out = await cli(['run']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('━━ 5/17 lost_reply ━ The reply is lost after the commit');
    expect(out.stdout).toContain('ledger hit: same key, same fingerprint → original receipt');
    expect(out.stdout).toContain('TransientError lost_reply · INDEFINITE: the effect may have happened — retry only with the same key');
    expect(out.stdout).toContain('↻ recovered: new connections, a new ReferenceRunner; state rebuilt from event #12 — reserve pending, attempt 1, calls 4');
    expect(out.stdout).toMatch(/ {2}✔ status {17}expected succeeded · actual succeeded/);
    expect(out.stdout.trimEnd().split('\n').slice(-2)).toEqual([
      '  17 passed, 0 failed (seed 42, reference runner)',
      '  next: lessons/01-intents-attempts-effects.md · npx faultlab run scenarios/pillars (the durability pillars) · npm run grade (the exercise)',
    ]);
  });

  it('runs one scenario by file or by id, with --quiet showing the summary only', async () => {
    const byFile = await cli(['run', 'scenarios/lost_reply.yaml', '--quiet']);
    const byId = await cli(['run', 'lost_reply', '--quiet']);
    expect(byFile.stdout).toBe(byId.stdout);
    expect(byFile.stdout).not.toContain('attempt_started');
    expect(byFile.stdout).toMatch(/5 {2}lost_reply {17}succeeded {12}5 {7}1 {2}camera 2 {4}✔ pass/);
  });

  it('prints one JSON document and nothing else with --json', async () => {
    const out = await cli(['run', 'lost_reply', 'stale_version', '--json']);
    const doc = JSON.parse(out.stdout);
    expect(doc).toEqual({
      seed: 42,
      runner: 'reference',
      scenarios: [
        { id: 'lost_reply', status: 'succeeded', calls: 5, ledger: 1, stock: { camera: 2, tripod: 2 }, crashes: 0, passed: true, violations: [] },
        { id: 'stale_version', status: 'tool_error', calls: 4, ledger: 1, stock: { camera: 2, tripod: 2 }, crashes: 0, passed: true, violations: [] },
      ],
      passed: 2,
      failed: 0,
    });
    expect(out.stderr).toBe('');
  });

  it('exits 1 and lists every failed check as a violation when a figure is wrong', async () => {
    const wrong = variant('wrong_figures', (t) => t.replace('calls: 5', 'calls: 4').replace('ledger: 1', 'ledger: 2'));
    const out = await cli(['run', wrong, '--json']);
    expect(out.code).toBe(1);
    const [s] = JSON.parse(out.stdout).scenarios;
    expect(s.passed).toBe(false);
    expect(s.violations).toEqual([
      { check: 'calls', expected: 4, actual: 5, message: 'calls: expected 4, got 5 — every attempt is one call, retries included' },
      { check: 'ledger', expected: 2, actual: 1, message: 'ledger: expected 2, got 1 — one ledger row per effect, all tasks counted' },
    ]);
  });

  it('reports a scenario whose fault never fires as broken, not as a pass', async () => {
    const broken = variant('never_fires', (t) => t.replace('at: { tool: reserve, attempt: 1 }', 'at: { tool: reserve, attempt: 7 }').replace('calls: 5', 'calls: 4'));
    const out = await cli(['run', broken]);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('BROKEN SCENARIO lost_reply');
    expect(out.stdout).toContain('broken scenario: lost_reply at reserve attempt 7 never fired — the run never reached that point, so it tested nothing there');
    expect(out.stdout).toContain('✘ broken scenario');
  });

  it('reports a learner runner that throws as that scenario failing, with the step (the stub as shipped, pinned)', async () => {
    const out = await cli(['run', 'happy_path', '--runner', 'test/fixtures/learners/stub/LearnerRunner.ts', '--json']);
    expect(out.code).toBe(1);
    const [s] = JSON.parse(out.stdout).scenarios;
    expect(s.violations[0]).toEqual({
      check: 'runner_error',
      expected: 'no exception',
      actual: 'NotImplementedError: not implemented yet: execute',
      message: 'the runner threw NotImplementedError at step 1: not implemented yet: execute',
    });
  });

  it('calls a never-fired fault under another runner a departure from the reference path, not a broken scenario', async () => {
    const out = await cli(['run', 'lost_reply', '--runner', 'test/fixtures/learners/mistakes/lost-reply-as-failure/LearnerRunner.ts']);
    expect(out.stdout).toContain('  FAIL lost_reply: tool_error');
    const never = variant('never_fires_learner', (t) => t.replace('at: { tool: reserve, attempt: 1 }', 'at: { tool: reserve, attempt: 2 }').replace('calls: 5', 'calls: 4'));
    const learner = await cli(['run', never, '--runner', 'test/fixtures/learners/mistakes/lost-reply-as-failure/LearnerRunner.ts']);
    expect(learner.stdout).not.toContain('BROKEN SCENARIO');
    expect(learner.stdout).toContain('lost_reply at reserve attempt 2 never fired: this run left the path the scenario was written for before that point (with --runner reference it fires, unless the scenario itself is broken)');
  });

  it('fails a runner that catches the crash, whatever its figures, and says so in the trace', async () => {
    const out = await cli(['run', 'crash_after_commit', '--runner', 'test/fixtures/learners/mistakes/crash-caught/LearnerRunner.ts', '--no-color']);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('⚠ the runner caught the crash: step caught the crash and then threw TypeError: The database connection is not open — a crash ends the process; let it through');
    expect(out.stdout).toContain('  ✘ a crash ends the step');
    expect(out.stdout).toContain('  FAIL crash_after_commit: succeeded · calls 5 · ledger 1 · stock camera 2 · 1 crash(es) recovered');
  });

  it('counts the crashes recovered in --json, and checks them against expect: crashes', async () => {
    const twice = variant('crash_twice', (t) =>
      t
        .replace('id: lost_reply', 'id: crash_twice')
        .replace('  - kind: lost_reply\n    at: { tool: reserve, attempt: 1 }', '  - kind: crash_after_commit\n    at: { tool: reserve, attempt: 1 }\n  - kind: crash_after_event\n    at: { label: prepared, tool: get_stock }')
        .replace('calls: 5', 'calls: 5\n  crashes: 2'),
    );
    const out = await cli(['run', twice, '--json']);
    const [s] = JSON.parse(out.stdout).scenarios;
    expect([out.code, s.crashes, s.violations]).toEqual([0, 2, []]);
    const wrong = variant('crash_count', (t) => readFileSync(twice, 'utf8').replace('crashes: 2', 'crashes: 1'));
    const [w] = JSON.parse((await cli(['run', wrong, '--json'])).stdout).scenarios;
    expect(w.violations).toEqual([{ check: 'crashes', expected: 1, actual: 2, message: 'crashes: expected 1, got 2 — crashes recovered, each by a new runner from the event log' }]);
  });

  it('tells the network\'s duplicate from two intents sharing a key, and a lost reply after a ledger hit from a commit', async () => {
    const duplicate = variant('duplicate_first', (t) =>
      t.replace('id: lost_reply', 'id: duplicate_first').replace('kind: lost_reply', 'kind: duplicate_delivery').replace('calls: 5', 'calls: 4'),
    );
    const dup = await cli(['run', duplicate, '--no-color']);
    expect(dup.stdout).toContain('→ the same request is delivered a second time');
    expect(dup.stdout).toContain('ledger hit: same key, same fingerprint → original receipt');
    expect(dup.stdout).not.toContain('two intents sharing one key?');
    const retried = variant('lost_twice', (t) =>
      t.replace('id: lost_reply', 'id: lost_twice').replace('    at: { tool: reserve, attempt: 1 }', '    at: { tool: reserve, attempt: 1 }\n  - kind: lost_reply\n    at: { tool: reserve, attempt: 2 }').replace('calls: 5', 'calls: 6'),
    );
    const lost = await cli(['run', retried, '--no-color']);
    expect(lost.stdout).toContain('⚡ fault lost_reply at reserve attempt 1: the tool committed; the reply is lost on the way back');
    expect(lost.stdout).toContain('⚡ fault lost_reply at reserve attempt 2: the tool answered from its ledger, committing nothing new; the reply is lost on the way back');
  });

  it('runs a learner file inside the determinism guard, as the grader does', async () => {
    const out = await cli(['run', 'happy_path', '--runner', 'test/fixtures/learners/RandomKey.ts', '--json']);
    const [s] = JSON.parse(out.stdout).scenarios;
    expect(s.violations[0].check).toBe('runner_error');
    expect(s.violations[0].message).toMatch(/^the runner threw DeterminismError at step 4: step\(\) called Math\.random\(\)/);
  });

  it('says what is wrong with a bad option and exits 2', async () => {
    expect((await cli(['run', '--seed', 'x'])).stderr).toContain('faultlab run: --seed must be an integer, got "x"');
    expect((await cli(['run', '--seed', 'x'])).code).toBe(2);
    const unknown = await cli(['run', '--sede', '3']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--sede'");
    expect((await cli(['fly'])).code).toBe(2);
    expect((await cli(['run', '--runner', 'nowhere.ts'])).stderr).toMatch(/--runner nowhere\.ts: no such file/);
  });

  it('keeps the SQLite files for inspection with --keep-db', async () => {
    const keep = join(dir, 'kept');
    const out = await cli(['run', 'lost_reply', '--quiet', '--keep-db', keep]);
    expect(out.code).toBe(0);
    expect(existsSync(join(keep, 'tool.db')) && existsSync(join(keep, 'events.db'))).toBe(true);
    expect(out.stdout).toContain(`databases kept in ${keep}`);
  });
});

describe('colour', () => {
  it('is on for a terminal and off with --no-color, NO_COLOR, --json or a pipe', async () => {
    expect((await cli(['run', 'happy_path'], { isTTY: true })).stdout).toMatch(ESC);
    expect((await cli(['run', 'happy_path', '--no-color'], { isTTY: true })).stdout).not.toMatch(ESC);
    expect((await cli(['run', 'happy_path'], { isTTY: true, env: { NO_COLOR: '1' } })).stdout).not.toMatch(ESC);
    expect((await cli(['run', 'happy_path', '--json'], { isTTY: true })).stdout).not.toMatch(ESC);
    expect((await cli(['run', 'happy_path'], { isTTY: false })).stdout).not.toMatch(ESC);
  });
});

describe('faultlab list', () => {
  it('prints one line per scenario: id, title, faults, expected status', async () => {
    const out = await cli(['list']);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(18);
    expect(lines[0]).toMatch(/^\s+#\s+id\s+title\s+faults\s+expected status$/);
    expect(lines[4]).toMatch(/^\s+4 {2}transient_read_exhausted\s+Retries run out on a read\s+transient at read_doc attempts 1–3\s+retry_exhausted$/);
    expect(lines[12]).toMatch(/^\s+12 {2}retry_after_version_moved .* lost_reply at reserve attempt 1; concurrent_reserve \(qty 1\) at reserve attempt 2 +succeeded$/);
  });
});

describe('the faultlab bin', () => {
  it('runs from the compiled build and answers --version', () => {
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
    expect(execFileSync(process.execPath, ['bin/faultlab.js', '--version'], { encoding: 'utf8' })).toBe(`faultlab ${version}\n`);
  });

  it('keeps stdout pure JSON through npm too, once npm is asked not to print its banner: `npm start --silent -- --json`', () => {
    const out = spawnSync('npm', ['start', '--silent', '--', '--json', 'lost_reply'], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ passed: 1, failed: 0, scenarios: [{ id: 'lost_reply', calls: 5, ledger: 1 }] });
  });

  it('exits 2 with usage on no command, and survives a reader that closes the pipe', () => {
    const none = spawnSync(process.execPath, ['bin/faultlab.js'], { encoding: 'utf8' });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('faultlab run [SCENARIO…] [options]');
    const piped = spawnSync('bash', ['-c', 'node bin/faultlab.js run --no-color | head -1'], { encoding: 'utf8' });
    expect(piped.stdout).toMatch(/^━━ 1\/17 happy_path/);
    expect(piped.stderr).toBe('');
  });
});

describe('pillar scenarios', () => {
  it('run through the same command, with their own trace and figures in --json', async () => {
    const out = await cli(['run', 'scenarios/pillars', '--quiet']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/13 passed, 0 failed/);
    const json = JSON.parse((await cli(['run', 'breaker_exact_threshold', '--json'])).stdout);
    expect(json.scenarios[0]).toMatchObject({ id: 'breaker_exact_threshold', kind: 'pillar', passed: true, violations: [] });
    const trace = (await cli(['run', 'breaker_trips_and_recovers'])).stdout;
    expect(trace).toContain('breaker memory_service: closed → open  (failure rate 0.60 over 10 results; refuses calls for 30 s)');
  });

  it('report input the schema cannot judge as bad input (exit 2)', async () => {
    const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const path = join(mkdtempSync(join(tmpdir(), 'faultlab-pillar-')), 'unknown_dependency.yaml');
    writeFileSync(path, readFileSync('scenarios/pillars/breaker_exact_threshold.yaml', 'utf8').replaceAll('memory_service', 'nowhere_service'));
    const out = await cli(['run', path]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/unknown_dependency\.yaml: .*nowhere_service/);
  });
});
