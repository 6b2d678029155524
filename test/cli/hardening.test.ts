/**
 * Every way a command can fail on input ends in one message on stderr that names what to fix, and exit 2:
 * a runner file that does not load, a --keep-db or --out that cannot be used, a TMPDIR that is not there, a
 * stdout that cannot be written. A runner file's own code cannot spoil stdout, end the run silently, or
 * keep the process alive. No stack trace reaches the user unless FAULTLAB_DEBUG=1 asks for one.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import { cli } from '../support.js';

const dir = mkdtempSync(join(tmpdir(), 'faultlab-hardening-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const STACK = /\n\s+at .+[:(]\d+/;
const FIXTURES = 'test/cli/fixtures';

/** The built CLI as a user runs it, in its own process. */
function bin(args: string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['bin/faultlab.js', ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
}

/** Exit 2, the message, no stack trace, nothing on stdout. */
function expectRefused(out: { code?: number | null; status?: number | null; stdout: string; stderr: string }, message: string | RegExp): void {
  expect(out.code ?? out.status).toBe(2);
  expect(out.stdout).toBe('');
  expect(out.stderr).toMatch(message);
  expect(out.stderr).not.toMatch(STACK);
}

describe('--runner at something that is not a runner file', () => {
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('names the place of a syntax error in a .js file (compiled before its box starts) — what a learner replaying their run meets first', () => {
    const bad = file('syntax.js', 'export class R {\n  step(s) {\n    return s +;\n  }\n}\n');
    expectRefused(bin(['run', 'happy_path', '--runner', bad]), `faultlab run: --runner ${bad}: syntax error at ${bad}:3:15: Unexpected ";"`);
  });

  it('names the place of a syntax error in a .ts file', async () => {
    const bad = file('syntax.ts', 'export class R {\n  step(s: number) {\n    return s +;\n  }\n}\n');
    expectRefused(await cli(['run', 'happy_path', '--runner', bad]), `faultlab run: --runner ${bad}: syntax error at ${bad}:3:15: Unexpected ";"`);
  });

  it.each([
    ['a .txt file', 'notes.txt', 'a runner file is TypeScript or JavaScript (.ts, .mts, .cts, .js, .mjs, .cjs), not .txt'],
    ['a .json file', 'runner.json', 'a runner file is TypeScript or JavaScript (.ts, .mts, .cts, .js, .mjs, .cjs), not .json'],
  ])('refuses %s by its extension', async (_what, name, message) => {
    const path = file(name, '{}\n');
    expectRefused(await cli(['run', 'happy_path', '--runner', path]), `faultlab run: --runner ${path}: ${message}`);
  });

  it('refuses a folder and an empty name', async () => {
    expectRefused(await cli(['run', 'happy_path', '--runner', dir]), `faultlab run: --runner ${dir} is a folder: give the .ts or .js file that exports the runner class`);
    expectRefused(await cli(['run', 'happy_path', '--runner', '']), 'faultlab run: --runner needs a value: reference, learner, mutant:NAME or the path of a .ts/.js file');
  });

  it('reports a module that throws on import as the file throwing, with its message', async () => {
    const throws = file('throws.ts', "throw new TypeError('no config found');\nexport {};\n");
    expectRefused(await cli(['run', 'happy_path', '--runner', throws]), `faultlab run: --runner ${throws}: the file threw TypeError while it was loaded: no config found`);
    expectRefused(await cli(['explore', 'happy_path', '--runner', throws]), `faultlab explore: --runner ${throws}: the file threw TypeError while it was loaded: no config found`);
  });
});

describe("a runner file's own code, contained", () => {
  it('prints to stderr, never into the one JSON document on stdout', () => {
    const out = bin(['run', 'happy_path', '--json', '--runner', `${FIXTURES}/PrintsEverywhere.ts`]);
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ passed: 1, failed: 0, scenarios: [{ id: 'happy_path', calls: 4, ledger: 1 }] });
    expect(out.stderr.split('\n').slice(0, 4)).toEqual(['loaded PrintsEverywhere', 'a raw write to stdout at import', 'step at calls 0', 'info too']);
  });

  it('prints to stderr under explore --json too', () => {
    const out = bin(['explore', 'read_only', '--json', '--runner', `${FIXTURES}/PrintsEverywhere.ts`, '--out', join(dir, 'explore-out')]);
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ runner: `${FIXTURES}/PrintsEverywhere.ts`, violations: [] });
    expect(out.stderr).toContain('loaded PrintsEverywhere');
  });

  it('cannot end the run with process.exit(0) in step: the run fails with the reason, exit 1', () => {
    const out = bin(['run', 'happy_path', '--json', '--runner', `${FIXTURES}/ExitsInStep.ts`]);
    expect(out.status).toBe(1);
    const [scenario] = JSON.parse(out.stdout).scenarios;
    expect(scenario.violations[0]).toMatchObject({
      check: 'runner_error',
      message: expect.stringMatching(/^the runner threw RunnerExitError at step 3: the runner called process\.exit\(0\): a runner returns the state from step\(\); it never ends the process/),
    });
  });

  it('cannot end the process with process.exit(0) while it is loaded: bad input, exit 2', () => {
    expectRefused(bin(['run', 'happy_path', '--json', '--runner', `${FIXTURES}/ExitsAtImport.ts`]), /--runner test\/cli\/fixtures\/ExitsAtImport\.ts: the file called process\.exit\(\) while it was loaded/);
  });

  it('cannot keep the process alive with a timer: the CLI exits once its output is written', () => {
    const out = bin(['run', 'happy_path', '--json', '--runner', `${FIXTURES}/KeepsAlive.ts`]);
    expect(out.signal).toBeNull(); // not killed by the 60 s guard
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout).passed).toBe(1);
  });

  it('fails the run, not faultlab, when its constructor throws', async () => {
    const out = await cli(['run', 'happy_path', '--json', '--runner', `${FIXTURES}/ThrowsInConstructor.ts`]);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout).scenarios[0]).toEqual({
      id: 'happy_path',
      status: 'runner_error',
      passed: false,
      violations: [
        {
          check: 'runner_error',
          expected: 'no exception',
          actual: 'its constructor threw RangeError: no runner today',
          message: 'the runner failed outside step(): its constructor threw RangeError: no runner today',
          code: 'cli.run.runnerFailed',
          params: { failure: { code: 'cli.run.constructorThrew', params: { what: 'RangeError: no runner today' } } },
        },
      ],
    });
  });
});

describe('paths the CLI writes to', () => {
  it('refuses --keep-db at a file, at /proc/self/x (which used to spin) and under a missing parent', async () => {
    const aFile = join(dir, 'a-file');
    writeFileSync(aFile, 'x');
    expectRefused(await cli(['run', 'happy_path', '--keep-db', aFile]), `--keep-db ${aFile}: is a file, not a folder (give a new or empty folder)`);
    expectRefused(await cli(['run', 'happy_path', '--keep-db', '/proc/self/x']), '--keep-db /proc/self/x: cannot make the folder: ENOENT');
    expectRefused(await cli(['run', 'happy_path', '--keep-db', join(dir, 'no', 'such', 'parent')]), `its parent folder ${join(dir, 'no', 'such')} does not exist (make it first)`);
  });

  const unwritable = (() => {
    const folder = join(dir, 'read-only');
    mkdirSync(folder);
    chmodSync(folder, 0o555);
    try {
      writeFileSync(join(folder, 'probe'), ''); // root writes anyway: try an empty folder the kernel refuses even to root
      rmSync(join(folder, 'probe'));
    } catch {
      return folder;
    }
    for (const candidate of ['/sys/kernel/debug', '/sys/fs/bpf', '/proc/sys/fs/binfmt_misc']) {
      try {
        if (readdirSync(candidate).length > 0) continue;
        writeFileSync(join(candidate, 'probe'), '');
      } catch {
        return candidate;
      }
    }
    return null;
  })();

  it.runIf(unwritable !== null)('refuses --keep-db at an empty folder it cannot write in', async () => {
    expectRefused(await cli(['run', 'happy_path', '--keep-db', unwritable!]), new RegExp(`--keep-db ${unwritable}: cannot lock it: SQLITE_(CANTOPEN|READONLY)`));
  });

  it('refuses --keep-db at a folder holding files that are not its databases: it deletes nothing it did not make', async () => {
    const mine = join(dir, 'my-notes');
    mkdirSync(mine);
    writeFileSync(join(mine, 'notes.md'), 'mine');
    expectRefused(await cli(['run', 'happy_path', '--keep-db', mine]), `--keep-db ${mine}: holds other files (notes.md)`);
    expect(readdirSync(mine)).toEqual(['notes.md']);
  });

  it('refuses --keep-db for a pillar scenario, which has no run databases, instead of claiming to keep them', async () => {
    const kept = join(dir, 'pillar-kept');
    expectRefused(await cli(['run', 'breaker_exact_threshold', '--keep-db', kept]), `--keep-db ${kept} cannot be used with a lab: scenarios/labs/breaker_exact_threshold.yaml is a lab (kind: lab), which drives the durability pillars directly, with no Runner and no inventory database to choose or keep`);
    expect(existsSync(kept)).toBe(false);
  });

  it('with --storage memory writes the databases\' images, and says so only because they are there', async () => {
    const kept = join(dir, 'memory-kept');
    const out = await cli(['run', 'lost_reply', '--quiet', '--storage', 'memory', '--keep-db', kept, '--width', '400']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`databases kept in ${kept}: tool.db, events.db`);
    const tool = new Database(join(kept, 'tool.db'), { readonly: true });
    expect(tool.prepare('SELECT count(*) FROM ledger').pluck().get()).toBe(1);
    expect(tool.prepare("SELECT available FROM items WHERE item_id = 'camera'").pluck().get()).toBe(2);
    tool.close();
    const events = new Database(join(kept, 'events.db'), { readonly: true });
    expect(events.prepare('SELECT count(*) FROM events').pluck().get()).toBeGreaterThan(5);
    events.close();
  });

  it('four runs at once on one --keep-db folder: each runs whole or is refused as busy, never a half-written failure', async () => {
    const kept = join(dir, 'shared-kept');
    const once = () =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
        const child = spawn(process.execPath, ['bin/faultlab.js', 'run', 'lost_reply', '--json', '--storage', 'file', '--keep-db', kept]);
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => done({ code, stdout, stderr }));
      });
    const outcomes = (await Promise.all([1, 2, 3].map(() => Promise.all([once(), once(), once(), once()])))).flat();
    for (const out of outcomes) {
      if (out.code === 0) expect(JSON.parse(out.stdout)).toMatchObject({ passed: 1, failed: 0 });
      else expectRefused(out, `--keep-db ${kept}: is in use by another faultlab run; wait for it to end, or give another folder`);
    }
    expect(outcomes.some((o) => o.code === 0)).toBe(true);
    const tool = new Database(join(kept, 'tool.db'), { readonly: true });
    expect(tool.prepare('SELECT count(*) FROM ledger').pluck().get()).toBe(1); // the last run's own databases, whole
    tool.close();
  });

  it('refuses explore --out at a file before exploring anything', async () => {
    const aFile = join(dir, 'out-file');
    writeFileSync(aFile, 'x');
    expectRefused(await cli(['explore', 'happy_path', '--out', aFile]), `faultlab explore: --out ${aFile} is a file, not a folder`);
  });
});

describe('the environment', () => {
  it('says so when TMPDIR names no folder and storage needs one', () => {
    expectRefused(bin(['run', 'happy_path', '--storage', 'file'], { TMPDIR: join(dir, 'no-such-tmp') }), `faultlab run: cannot make a temporary folder in ${join(dir, 'no-such-tmp')} (the system's temporary folder; set TMPDIR to change it): ENOENT`);
    expectRefused(bin(['explore', 'happy_path', '--storage', 'file'], { TMPDIR: join(dir, 'no-such-tmp') }), /faultlab explore: cannot make a temporary folder in/);
  });

  it('says so when stdout cannot be written (/dev/full), exit 2, no stack', () => {
    const out = spawnSync('bash', ['-c', 'node bin/faultlab.js list > /dev/full'], { encoding: 'utf8' });
    expect(out.status).toBe(2);
    expect(out.stderr).toBe('faultlab list: cannot write to stdout: ENOSPC (no space left on the device)\n');
  });

  it('shows no stack for a bug in faultlab unless FAULTLAB_DEBUG=1 asks for it, and exits 70', async () => {
    const io = (env: Record<string, string>): Io & { err: () => string } => {
      let err = '';
      return {
        stdout: {
          write: () => {
            throw new Error('a bug in a renderer');
          },
        },
        stderr: { write: (t: string) => (err += t) },
        env,
        isTTY: false,
        cwd: process.cwd(),
        err: () => err,
      };
    };
    const plain = io({});
    expect(await main(['list'], plain)).toBe(70);
    expect(plain.err()).toBe('faultlab list: internal error: Error: a bug in a renderer\n  this is a bug in faultlab, not in your input — run again with FAULTLAB_DEBUG=1 to see where it happened\n');
    const debug = io({ FAULTLAB_DEBUG: '1' });
    expect(await main(['list'], debug)).toBe(70);
    expect(debug.err()).toMatch(STACK);
  });
});
