/**
 * A full disk is the machine's failure: the command stops with exit 2 and says where there is no room — a run
 * is not failed for it, no runner (the reference's, a learner's in its box) is said to have thrown, faultlab
 * reports no internal error, and nothing is left in the temporary folder. Each case runs the built CLI with a
 * TMPDIR on a small tmpfs, mounted in a mount namespace of the test's own (root only, as CI runs).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../tempFolder.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SOLUTION = join(ROOT, 'test', 'fixtures', 'learners', 'solution', 'LearnerRunner.ts');
const asRoot = process.getuid?.() === 0;

/** `faultlab ARGS` with TMPDIR on a tmpfs of `size` (filled first when `fill`); what it said, and what it left there. */
function onSmallDisk(size: string, args: string[], fill = false): { code: number | null; stderr: string; left: string } {
  const tmp = tempFolder('disk-full');
  const script = [
    `mount -t tmpfs -o size=${size} faultlab-test "$1"`,
    ...(fill ? ['dd if=/dev/zero of="$1/filler" bs=4k 2>/dev/null; true'] : []),
    'shift; TMPDIR="$0" "$@" 2>&1 1>/dev/null; code=$?',
    `ls -A "$0" | grep -v '^filler$' >&2; exit $code`,
  ].join('\n');
  const ran = spawnSync('unshare', ['--mount', '/bin/sh', '-c', script, tmp, tmp, process.execPath, join(ROOT, 'bin', 'faultlab.js'), ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: ran.status, stderr: ran.stdout, left: ran.stderr };
}

describe.runIf(asRoot)('a full disk', () => {
  it.each([
    ['the reference, --storage file', '60k', ['run', 'happy_path', '--storage', 'file']],
    ["a learner's runner in its box, --storage file", '110k', ['run', 'happy_path', '--storage', 'file', '--runner', SOLUTION]],
    ['a grade', '40k', ['grade', SOLUTION, '--scenarios', 'happy_path']],
    ['a temporary folder with no room left at all', '64k', ['run', 'happy_path', '--storage', 'file']],
  ])('%s: exit 2, where there is no room, no runner blamed, nothing left behind', (what, size, args) => {
    const ended = onSmallDisk(size, args, what.startsWith('a temporary folder'));
    expect(ended.code).toBe(2);
    expect(ended.stderr).toMatch(/^faultlab (run|grade): (no space left on the device of |cannot make a temporary folder in .*: ENOSPC)/);
    expect(ended.stderr).not.toMatch(/threw|internal error|could not load/);
    expect(ended.left).toBe('');
  });
});
