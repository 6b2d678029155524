/**
 * The walls of a box, as a submission meets them (src/box/isolation.ts). A probe is loaded in a box the way
 * every command loads a learner's file (src/target/runners.ts) and reports, while it loads, what it could
 * see and do; the test baked into it what it should try — the checkout, a classmate's file, the grader's pid.
 * Where faultlab is root (as CI is), a box sees nothing of the machine but its own files, writes nothing
 * outside its own /tmp (which is small), signals no process of the grader's, runs as a user no other box
 * shares, and nothing it starts outlives it. Not root: the one line a grade prints says what it lacked.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolation, missingWalls } from '../../src/box/isolation.js';
import { openRunner } from '../../src/target/runners.js';
import { tempFolder } from '../tempFolder.js';

const ROOT = join(import.meta.dirname, '..', '..');
const asRoot = process.getuid?.() === 0;
const work = tempFolder('walls');

/** Everything the probe tried, as it reports it. */
interface Seen {
  uid: number;
  pids: string[];
  env: Record<string, string>;
  cwd: string;
  read: Record<string, string>;
  wrote: Record<string, string>;
  signalled: string;
  addresses: string[];
  bigTmpFile: string;
}

/** A runner file that, when loaded, tries what it must not and prints what came of it as one JSON line. */
function probe(name: string, targets: { read: string[]; write: string[]; graderPid: number }): string {
  const file = join(work, `${name}.ts`);
  writeFileSync(
    file,
    `import { BaseRunner } from './BaseRunner.js';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { spawn } from 'node:child_process';
const targets = ${JSON.stringify(targets)};
const outcome = (f: () => unknown) => { try { f(); return 'ok'; } catch (e) { return String((e as NodeJS.ErrnoException).code ?? e); } };
const seen = {
  uid: process.getuid!(),
  pids: readdirSync('/proc').filter((n) => /^\\d+$/.test(n)),
  env: { ...process.env },
  cwd: process.cwd(),
  read: Object.fromEntries(targets.read.map((p) => [p, outcome(() => readFileSync(p))])),
  wrote: Object.fromEntries(targets.write.map((p) => [p, outcome(() => writeFileSync(p, 'overwritten by a box'))])),
  signalled: outcome(() => process.kill(targets.graderPid, 0)),
  addresses: Object.values(networkInterfaces()).flat().filter((a) => a && !a.internal).map((a) => a!.address),
  bigTmpFile: outcome(() => writeFileSync('/tmp/big', Buffer.alloc(40 * 1024 * 1024))),
};
// Something that would outlive the box, if anything could: a detached child in a session of its own.
spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' }).unref();
console.log(JSON.stringify(seen));
export class LearnerRunner extends BaseRunner { step(state: any) { return state; } }
`,
  );
  return file;
}

/** Load `file` in a box, as a command would; what it printed while loading, and the box's uid. */
async function loadIn(file: string): Promise<{ seen: Seen; close: () => Promise<void> }> {
  let printed = '';
  const opened = await openRunner({ kind: 'file', file }, file, { onOutput: (out) => (printed += out.text) });
  return { seen: JSON.parse(printed) as Seen, close: () => opened.close() };
}

/** Processes of `uid` still alive on the machine. */
function processesOf(uid: number): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(readFileSync(`/proc/${pid}/status`, 'utf8'));
      } catch {
        return false;
      }
    });
}

describe.runIf(asRoot)('a box, where faultlab is root', () => {
  const classmate = join(work, 'class', 'bob', 'LearnerRunner.ts');
  mkdirSync(join(work, 'class', 'bob'), { recursive: true });
  writeFileSync(classmate, 'export class LearnerRunner { /* bob’s own work */ }\n');
  const heldOut = join(ROOT, 'scenarios', 'happy_path.yaml');
  const checkout = join(ROOT, 'dist', 'src', 'runner', 'BaseRunner.js');
  const before = readFileSync(checkout, 'utf8');
  const targets = { read: [classmate, heldOut, join(ROOT, 'package.json'), '/etc/passwd'], write: [checkout, join(work, 'class', 'bob', 'results.json')], graderPid: process.pid };

  it('has every wall', () => {
    expect(missingWalls(isolation())).toEqual([]);
  });

  it('reads no other submission, no scenario, nothing of the checkout or the machine; writes none of them', async () => {
    const box = await loadIn(probe('reads', targets));
    await box.close();
    expect(box.seen.read).toEqual(Object.fromEntries(targets.read.map((p) => [p, 'ENOENT'])));
    expect(box.seen.wrote).toEqual(Object.fromEntries(targets.write.map((p) => [p, 'ENOENT'])));
    expect(readFileSync(checkout, 'utf8')).toBe(before);
    expect(existsSync(join(work, 'class', 'bob', 'results.json'))).toBe(false);
  });

  it('sees no process but its own, cannot signal the grader, has TMPDIR alone, / for a folder and no network', async () => {
    const box = await loadIn(probe('looks', targets));
    await box.close();
    expect(box.seen.pids.length).toBeLessThanOrEqual(3); // its waiting shell, itself, the child it started
    expect(box.seen.signalled).toBe('ESRCH');
    expect([box.seen.env, box.seen.cwd, box.seen.addresses]).toEqual([{ TMPDIR: '/tmp' }, '/', []]);
  });

  it('has a /tmp of its own that a runaway write cannot grow past a few megabytes', async () => {
    const box = await loadIn(probe('fills', targets));
    await box.close();
    expect(['EFBIG', 'ENOSPC']).toContain(box.seen.bigTmpFile);
  });

  it('runs as a user of its own — not root, not nobody, not the box beside it — and nothing it started outlives it', async () => {
    const [a, b] = await Promise.all([loadIn(probe('a', targets)), loadIn(probe('b', targets))]);
    expect(a.seen.uid).not.toBe(b.seen.uid);
    for (const uid of [a.seen.uid, b.seen.uid]) expect([0, 65534]).not.toContain(uid);
    expect(processesOf(a.seen.uid).length).toBeGreaterThanOrEqual(2); // the box and its detached child
    await Promise.all([a.close(), b.close()]);
    // The namespace goes down with its first process, the box's shell, killed as the box is: a moment after.
    await expect.poll(() => [...processesOf(a.seen.uid), ...processesOf(b.seen.uid)], { timeout: 5000 }).toEqual([]);
  });
});

describe.skipIf(asRoot)('a box, where faultlab is not root', () => {
  it('says it has no user and no root of its own', () => {
    expect(missingWalls(isolation())).toEqual(expect.arrayContaining(['other_user', 'own_root']));
  });
});
