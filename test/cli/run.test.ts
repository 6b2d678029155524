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
      '  next: lessons/01-intents-attempts-effects.md · npx faultlab run scenarios/labs (the durability labs) · npm run grade (the exercise)',
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
        { id: 'lost_reply', status: 'succeeded', calls: 5, ledger: 1, crashes: 0, stock: { camera: 2, tripod: 2 }, passed: true, violations: [] },
        { id: 'stale_version', status: 'tool_error', calls: 4, ledger: 1, crashes: 0, stock: { camera: 2, tripod: 2 }, passed: true, violations: [] },
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

  it('reports a learner runner that throws as that scenario failing, with the step', async () => {
    const out = await cli(['run', 'happy_path', '--runner', 'learner', '--json']);
    expect(out.code).toBe(1);
    const [s] = JSON.parse(out.stdout).scenarios;
    expect(s.violations[0]).toEqual({
      check: 'runner_error',
      expected: 'no exception',
      actual: 'NotImplementedError: not implemented yet: execute',
      message: 'the runner threw NotImplementedError at step 1: not implemented yet: execute',
    });
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

describe('labs', () => {
  it('run through the same command, in the same look, with their figures in --json', async () => {
    const out = await cli(['run', 'scenarios/labs', '--quiet']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/14 passed, 0 failed \(seed 42, labs: no runner\)/);
    expect(out.stdout).toMatch(/\n {6}thundering_herd +lab +- +- +✔ pass\n/);
    const json = JSON.parse((await cli(['run', 'breaker_exact_threshold', '--json'])).stdout);
    expect(json).toMatchObject({ runner: null, passed: 1, failed: 0 });
    expect(json.scenarios[0]).toMatchObject({ id: 'breaker_exact_threshold', kind: 'lab', experiment: 'breaker', passed: true, violations: [] });
    const trace = (await cli(['run', 'breaker_trips_and_recovers'])).stdout;
    expect(trace).toContain('━━ 1/1 breaker_trips_and_recovers ━ Circuit breaker: the route floods, closes, is scouted, and reopens');
    expect(trace).toContain('   900ms  breaker memory_service: closed → open  (failure rate 0.60 over 10 results; refuses calls for 30 s)');
    expect(trace).toContain('  ✔ final_state            expected closed · actual closed');
  });

  it('are found by id, and listed with the kind of lab they are', async () => {
    expect((await cli(['run', 'concurrent_check_and_record', '--quiet'])).code).toBe(0);
    const list = await cli(['list', 'scenarios/labs']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/\n {5}thundering_herd +Retry: 100 clients fail at once — five jitter strategies against one herd +lab: herd +-\n/);
  });

  it('mixed with runner scenarios, name the runner only for those', async () => {
    const out = await cli(['run', 'happy_path', 'backoff_schedule', '--quiet']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('2 passed, 0 failed (seed 42, reference runner; labs: no runner)');
  });

  it.each([
    [['--runner', 'learner'], '--runner learner'],
    [['--storage', 'file'], '--storage file'],
    [['--keep-db', join(dir, 'kept')], `--keep-db ${join(dir, 'kept')}`],
  ])('refuse %j with exit 2 and say why, instead of ignoring it', async (flags, shown) => {
    const out = await cli(['run', 'thundering_herd', ...flags]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(
      `faultlab run: ${shown} cannot be used with a lab: scenarios/labs/thundering_herd.yaml is a lab (kind: lab), which drives the durability pillars directly, ` +
        'with no Runner and no inventory database to choose or keep. Run labs without --runner, --storage and --keep-db.\n',
    );
  });

  it('refuse --runner even when a folder of them is run with runner scenarios', async () => {
    const out = await cli(['run', 'scenarios', 'scenarios/labs', '--runner', 'learner', '--quiet']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^faultlab run: --runner learner cannot be used with a lab: scenarios\/labs\/abandoned_probe_rearms\.yaml, .* and 11 more are labs \(kind: lab\)/);
  });

  it.each([
    [['explore', 'scenarios/labs/backoff_schedule.yaml'], 'explore'],
    [['grade', '--scenarios', 'happy_path', '--scenarios', 'backoff_schedule'], 'grade'],
  ])('are refused by %j, which run Runners', async (argv, command) => {
    const out = await cli(argv);
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      `faultlab ${command}: ${command} runs a Runner through runner scenarios; scenarios/labs/backoff_schedule.yaml is a lab (kind: lab), with no Runner to ${command}. Run labs with faultlab run.\n`,
    );
  });

  it.each([
    ['unknown_dependency', 'breaker_exact_threshold', (t: string) => t.replaceAll('memory_service', 'nowhere_service'), 'nowhere_service', 'dependency: no circuit breaker is configured for "nowhere_service"'],
    ['ghost_report', 'breaker_trips_and_recovers', (t: string) => t.replace('call: probe_b', 'call: ghost'), 'ghost', 'steps[16].report.call: no call "ghost" in flight'],
    ['typo_code', 'backoff_schedule', (t: string) => t.replace('error_code: NETWORK_TIMEOUT', 'error_code: NETWORK_TIMOUT'), 'NETWORK_TIMOUT', 'error_code: unknown error code "NETWORK_TIMOUT"'],
  ])('report input a lab cannot run (%s) as bad input at its line and column (exit 2)', async (name, source, edit, needle, message) => {
    const text = edit(readFileSync(join(SCENARIOS_DIR, 'labs', `${source}.yaml`), 'utf8'));
    const path = join(dir, `${name}.yaml`);
    writeFileSync(path, text);
    const lines = text.split('\n');
    const line = lines.findLastIndex((l) => l.includes(needle));
    const out = await cli(['run', path]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr.split('\n')[0]).toContain(`${path}:${line + 1}:${(lines[line] ?? '').indexOf(needle) + 1}: ${message}`);
  });
});
