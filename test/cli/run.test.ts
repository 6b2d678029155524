/** stdout is a contract: the trace, the summary, --json with nothing else, and exit codes that mean something. */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../tempFolder.js';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import { displayWidth } from '../../src/render/format.js';
import { cli } from '../support.js';

/** The output with every wrapped line joined back: a sentence is found whatever the width cut it into. */
const unwrapped = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean).join(' ');

const ESC = /\x1b\[/;
const dir = tempFolder('cli');
const variant = (name: string, edit: (text: string) => string) => {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, edit(readFileSync(join(SCENARIOS_DIR, 'lost_reply.yaml'), 'utf8')));
  return path;
};

describe('faultlab run', () => {
  it('runs the 17, shows the two traces a class follows and a summary of all, and exits 0', async () => {
    const out = await cli(['run']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('━━ 5/17 lost_reply ━ The reply is lost after the commit');
    expect(out.stdout).toContain('━━ 7/17 crash_after_commit ━ Crash after the commit: recover from the log');
    expect(out.stdout).not.toContain('━━ 1/17 happy_path');
    const text = unwrapped(out.stdout);
    expect(text).toContain('ledger hit: same key, same fingerprint → original receipt res_3192e4, no change');
    expect(text).toContain('TransientError lost_reply · INDEFINITE: the effect may have happened — retry only with the same key');
    expect(text).toContain('↻ recovered: new connections, a new ReferenceRunner; state rebuilt from event #12 — reserve pending, attempt 1, calls 4');
    expect(out.stdout).toMatch(/ {2}✔ status {17}expected succeeded · actual succeeded/);
    expect(out.stdout).toMatch(/ {3}1 happy_path {16}succeeded {12}4 {6}1 {2}camera 2 {2}✔ pass/);
    expect(text).toContain('17 passed, 0 failed (seed 42, reference runner)');
    expect(text).toContain('more: the other 15 traces with npx faultlab run --all · one with npx faultlab run ID · each run as a page with --html DIR');
    expect(text.endsWith('next: lessons/01-intents-attempts-effects.md · npx faultlab run scenarios/pillars (the pillars in the Runner) · npm run grade (the exercise)')).toBe(true);
  });

  it('shows every trace with --all, and every scenario named', async () => {
    const all = await cli(['run', '--all']);
    expect(all.stdout.match(/^━━ \d+\/17 /gm)).toHaveLength(17);
    expect(all.stdout).not.toContain('more: the other');
    const named = await cli(['run', 'happy_path', 'read_only']);
    expect(named.stdout.match(/^━━ \d\/2 /gm)).toEqual(['━━ 1/2 ', '━━ 2/2 ']);
  });

  it('fits the width: --width 80 prints no line wider than 80 columns but a single unbreakable token', async () => {
    const out = await cli(['run', '--all', '--width', '80', '--no-color']);
    const over = out.stdout.split('\n').filter((line) => displayWidth(line) > 80);
    expect(over.filter((line) => line.trim().split(' ').length > 1)).toEqual([]);
    // The one kind of token allowed past 80: a full key, printed once where it is made — the longest task id's.
    expect(over.map((line) => line.trim())).toEqual(['retry_after_version_moved:reserve:2872d1b41daae32b0ce88be6d8774feb']);
    expect(out.stdout).toContain('← key made once, here (task, item, qty):\n');
    expect(out.stdout).toMatch(/^ {17}lost_reply:reserve:2872d1b41daae32b0ce88be6d8774feb$/m);
    // Every later line shortens the key to its hash's first 8 hex characters.
    expect(out.stdout).toContain('key=2872d1b4…');
    const quiet = await cli(['run', '--quiet']);
    expect(Math.max(...quiet.stdout.split('\n').map(displayWidth))).toBeLessThanOrEqual(80);
  });

  it('takes the terminal\'s width when there is one, a fixed 80 when not, and --width over both', async () => {
    const widest = (text: string) => Math.max(...text.split('\n').map(displayWidth));
    const piped = await cli(['run', 'lost_reply', '--no-color']);
    const wide = await cli(['run', 'lost_reply', '--no-color'], { isTTY: true, columns: 160 });
    expect(widest(piped.stdout)).toBeLessThanOrEqual(80);
    expect(widest(wide.stdout)).toBeGreaterThan(100);
    expect(widest(wide.stdout)).toBeLessThanOrEqual(160);
    expect((await cli(['run', 'lost_reply', '--no-color', '--width', '100'], { isTTY: true, columns: 160 })).stdout).toBe(
      (await cli(['run', 'lost_reply', '--no-color', '--width', '100'])).stdout,
    );
    const bad = await cli(['run', '--width', '12']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--width must be an integer from 40 to 1000, got "12"');
  });

  it('writes each run as a self-contained page with --html, the same bytes every time', async () => {
    const pages = join(dir, 'pages');
    const out = await cli(['run', 'lost_reply', 'crash_after_commit', '--quiet', '--html', pages]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`pages: ${join(pages, 'index.html')}`);
    const page = readFileSync(join(pages, 'lost_reply.html'), 'utf8');
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).toContain('INDEFINITE');
    const index = readFileSync(join(pages, 'index.html'), 'utf8');
    expect(index).toContain('href="lost_reply.html"');
    expect(index).toContain('href="crash_after_commit.html"');
    await cli(['run', 'lost_reply', '--quiet', '--html', join(dir, 'again')]);
    expect(readFileSync(join(dir, 'again', 'lost_reply.html'), 'utf8')).toBe(page);
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
      {
        check: 'calls',
        expected: 4,
        actual: 5,
        message: 'calls: expected 4, got 5 — every attempt is one call, retries included',
        code: 'check.figure.differs',
        params: { figure: 'calls', expected: '4', actual: '5', meaning: { code: 'check.meaning.calls', params: {} } },
      },
      {
        check: 'ledger',
        expected: 2,
        actual: 1,
        message: 'ledger: expected 2, got 1 — one ledger row per effect, all tasks counted',
        code: 'check.figure.differs',
        params: { figure: 'ledger', expected: '2', actual: '1', meaning: { code: 'check.meaning.ledger', params: {} } },
      },
    ]);
  });

  it('reports a scenario whose fault never fires as broken, not as a pass', async () => {
    const broken = variant('never_fires', (t) => t.replace('at: { tool: reserve, attempt: 1 }', 'at: { tool: reserve, attempt: 7 }').replace('calls: 5', 'calls: 4'));
    const out = await cli(['run', broken]);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('BROKEN SCENARIO lost_reply');
    expect(unwrapped(out.stdout)).toContain('broken scenario: lost_reply at reserve attempt 7 never fired — the run never reached that point, or another fault there ended the attempt first, so it tested nothing there');
    expect(out.stdout).toMatch(/^ +5 lost_reply .* ✘ broken$/m);
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
      code: 'check.runnerError.message',
      // the stub's error is faultlab's, so it says what it says as a message too (worded in --lang zh)
      params: { name: 'NotImplementedError', step: 1, message: { code: 'runner.notImplemented', params: { what: 'execute' } } },
    });
  });

  it('calls a never-fired fault under another runner a departure from the reference path, not a broken scenario', async () => {
    const out = await cli(['run', 'lost_reply', '--runner', 'test/fixtures/learners/mistakes/lost-reply-as-failure/LearnerRunner.ts', '--width', '300']);
    expect(out.stdout).toContain('  FAIL lost_reply: tool_error');
    const never = variant('never_fires_learner', (t) => t.replace('at: { tool: reserve, attempt: 1 }', 'at: { tool: reserve, attempt: 2 }').replace('calls: 5', 'calls: 4'));
    const learner = await cli(['run', never, '--runner', 'test/fixtures/learners/mistakes/lost-reply-as-failure/LearnerRunner.ts', '--width', '300']);
    expect(learner.stdout).not.toContain('BROKEN SCENARIO');
    expect(learner.stdout).toContain('lost_reply at reserve attempt 2 never fired: this run left the path the scenario was written for before that point (with --runner reference it fires, unless the scenario itself is broken)');
  });

  it('fails a runner that catches the crash, whatever its figures, and says so in the trace', async () => {
    const out = await cli(['run', 'crash_after_commit', '--runner', 'test/fixtures/learners/mistakes/crash-caught/LearnerRunner.ts', '--no-color', '--width', '300']);
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
    expect(w.violations).toMatchObject([{ check: 'crashes', expected: 1, actual: 2, message: 'crashes: expected 1, got 2 — crashes recovered, each by a new runner from the event log', code: 'check.figure.differs' }]);
  });

  it('tells the network\'s duplicate from two intents sharing a key, and a lost reply after a ledger hit from a commit', async () => {
    const duplicate = variant('duplicate_first', (t) =>
      t.replace('id: lost_reply', 'id: duplicate_first').replace('kind: lost_reply', 'kind: duplicate_delivery').replace('calls: 5', 'calls: 4'),
    );
    const dup = await cli(['run', duplicate, '--no-color', '--width', '300']);
    expect(dup.stdout).toContain('→ the same request is delivered a second time');
    expect(dup.stdout).toContain('ledger hit: same key, same fingerprint → original receipt');
    expect(dup.stdout).not.toContain('two intents sharing one key?');
    const retried = variant('lost_twice', (t) =>
      t.replace('id: lost_reply', 'id: lost_twice').replace('    at: { tool: reserve, attempt: 1 }', '    at: { tool: reserve, attempt: 1 }\n  - kind: lost_reply\n    at: { tool: reserve, attempt: 2 }').replace('calls: 5', 'calls: 6'),
    );
    const lost = await cli(['run', retried, '--no-color', '--width', '300']);
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
    expect(unwrapped(out.stdout)).toContain(`databases kept in ${keep}`);
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
    expect(piped.stdout).toMatch(/^━━ 5\/17 lost_reply/);
    expect(piped.stderr).toBe('');
  });
});

describe('labs', () => {
  it('run through the same command, in the same look, with their figures in --json', async () => {
    const out = await cli(['run', 'scenarios/labs', '--quiet']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/9 passed, 0 failed \(seed 42, labs: no runner\)/);
    expect(out.stdout).toMatch(/\n {5}thundering_herd +lab +- +- +✔ pass\n/);
    const json = JSON.parse((await cli(['run', 'breaker_exact_threshold', '--json'])).stdout);
    expect(json).toMatchObject({ runner: null, passed: 1, failed: 0 });
    expect(json.scenarios[0]).toMatchObject({ id: 'breaker_exact_threshold', kind: 'lab', experiment: 'breaker', passed: true, violations: [] });
    const trace = (await cli(['run', 'breaker_trips_and_recovers', '--width', '200'])).stdout;
    expect(trace).toContain('━━ 1/1 breaker_trips_and_recovers ━ Circuit breaker: the route floods, closes, is scouted, and reopens');
    expect(trace).toContain('   900ms  breaker memory_service: closed → open (failure rate 0.60 over 10 results; refuses calls for 30 s)');
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
    expect(out.stderr).toMatch(/^faultlab run: --runner learner cannot be used with a lab: scenarios\/labs\/abandoned_probe_rearms\.yaml, .* and 6 more are labs \(kind: lab\)/);
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
    // The field is the last line naming the needle outside the Chinese explanation that closes the file.
    const line = lines.findLastIndex((l) => l.includes(needle) && !l.startsWith('  explain: "') && !l.startsWith('    '));
    const out = await cli(['run', path]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr.split('\n')[0]).toContain(`${path}:${line + 1}:${(lines[line] ?? '').indexOf(needle) + 1}: ${message}`);
  });
});
