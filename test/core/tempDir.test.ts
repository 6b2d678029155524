/**
 * faultlab's temporary folders are marked as its own, and only marked folders of processes that are gone
 * are ever swept: a folder of a live process, an unmarked folder, or someone else's file is never touched.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHILDREN_FILE, checkTempDir, makeTempDir, removeOwnTempDirs, sweepStaleTempDirs, TEMP_MARKER, TempDirError } from '../../src/core/tempDir.js';
import { FileStorage } from '../../src/core/storage.js';
import { word } from '../../src/render/words/index.js';

let sandbox: string;
const saved = process.env.TMPDIR;
const base = tmpdir();
beforeEach(() => {
  sandbox = mkdtempSync(join(base, 'faultlab-tempdir-test-'));
  process.env.TMPDIR = sandbox;
});
afterEach(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
  rmSync(sandbox, { recursive: true, force: true });
});

/** A pid that was a process and is now gone: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** A folder as a faultlab process `pid` would have left it. */
function leftBy(pid: number, marker: object | null, suffix = 'AbC123'): string {
  const dir = join(sandbox, `faultlab-${pid}-${suffix}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'tool.db'), '');
  if (marker !== null) writeFileSync(join(dir, TEMP_MARKER), JSON.stringify(marker));
  return dir;
}

describe('temporary folders', () => {
  it("are made in the process's own folder in TMPDIR, named for the process and marked with its pid and host", () => {
    const dir = makeTempDir('test');
    const [own] = readdirSync(sandbox);
    expect(own).toMatch(new RegExp(`^faultlab-${process.pid}-[A-Za-z0-9]{6}$`));
    expect(dir).toMatch(new RegExp(`^${join(sandbox, own!)}/test-[A-Za-z0-9]{6}$`));
    expect(JSON.parse(readFileSync(join(sandbox, own!, TEMP_MARKER), 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
    removeOwnTempDirs();
    expect(readdirSync(sandbox)).toEqual([]);
  });

  it('a file storage lives in one, and its disposal removes it', () => {
    const storage = new FileStorage();
    expect(readdirSync(storage.dir).sort()).toEqual(['events.db', 'tool.db']);
    storage.dispose();
    expect(existsSync(storage.dir)).toBe(false);
    removeOwnTempDirs();
    expect(readdirSync(sandbox)).toEqual([]);
  });

  it('the start-up sweep removes only marked folders of gone processes of this host', () => {
    const gone = deadPid();
    const stale = leftBy(gone, { pid: gone, host: hostname() });
    const live = leftBy(process.ppid, { pid: process.ppid, host: hostname() });
    const unmarked = leftBy(gone, null, 'Zzz999');
    const otherHost = leftBy(gone, { pid: gone, host: `not-${hostname()}` }, 'Host00');
    const lookalike = join(sandbox, 'faultlab-cli-AbC123');
    mkdirSync(lookalike);
    expect(sweepStaleTempDirs()).toEqual([stale]);
    expect([live, unmarked, otherHost, lookalike].map(existsSync)).toEqual([true, true, true, true]);
  });

  it('the sweep also removes a folder a full disk left with an empty marker and nothing else, once its process is gone', () => {
    const gone = deadPid();
    const empty = join(sandbox, `faultlab-${gone}-Full00`);
    mkdirSync(empty);
    writeFileSync(join(empty, TEMP_MARKER), '');
    const live = join(sandbox, `faultlab-${process.ppid}-Full01`);
    mkdirSync(live);
    writeFileSync(join(live, TEMP_MARKER), '');
    const holding = leftBy(gone, null, 'Full02');
    writeFileSync(join(holding, TEMP_MARKER), '');
    expect(sweepStaleTempDirs()).toEqual([empty]);
    expect([live, holding].map(existsSync)).toEqual([true, true]); // a live process's; one that holds more than the marker
  });

  it("kills the processes a stale run folder lists that still work in it — a stopped one too — and no process of another folder", async () => {
    const gone = deadPid();
    const stale = leftBy(gone, { pid: gone, host: hostname() });
    const run = join(stale, 'torture-AbC123');
    mkdirSync(run);
    // Two processes that never end on their own: one names the run folder on its command line (as a torture worker
    // names its database), the other names another folder; both listed. The first is stopped, as by SIGSTOP.
    const forever = 'setInterval(() => {}, 1000)';
    const worker = spawn(process.execPath, ['-e', forever, join(run, 'torture.db')], { stdio: 'ignore' });
    const stranger = spawn(process.execPath, ['-e', forever, join(sandbox, 'elsewhere.db')], { stdio: 'ignore' });
    const ended = (child: typeof worker) => new Promise<string | null>((done) => child.on('exit', (_code, signal) => done(signal)));
    const [workerEnd, strangerEnd] = [ended(worker), ended(stranger)];
    try {
      // A child's command line is its parent's until it has started: wait for its own.
      const started = (pid: number, path: string) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path);
        } catch {
          return false;
        }
      };
      while (!started(worker.pid!, run) || !started(stranger.pid!, 'elsewhere.db')) await new Promise((resolve) => setTimeout(resolve, 5));
      worker.kill('SIGSTOP');
      writeFileSync(join(run, CHILDREN_FILE), `${worker.pid}\n${stranger.pid}\n`);
      expect(sweepStaleTempDirs()).toEqual([stale]);
      expect(await workerEnd).toBe('SIGKILL');
      expect(stranger.exitCode === null && stranger.signalCode === null).toBe(true);
    } finally {
      stranger.kill('SIGKILL');
      worker.kill('SIGKILL');
    }
    expect(await strangerEnd).toBe('SIGKILL');
  });

  it('says where it tried when TMPDIR names no folder, as bad input', () => {
    process.env.TMPDIR = join(sandbox, 'nowhere');
    expect(() => checkTempDir()).toThrow(TempDirError);
    const error = (() => {
      try {
        checkTempDir();
      } catch (e) {
        return e as TempDirError;
      }
      throw new Error('no error');
    })();
    expect(word('en', error.said)).toBe(`cannot make a temporary folder in ${join(sandbox, 'nowhere')} (the system's temporary folder; set TMPDIR to change it): ENOENT`);
  });
});
