/**
 * The built CLI (bin/faultlab.cjs, the bundle `npm install` makes) starts the explorer's worker threads on
 * their own bundle, dist/bundle/explore-worker.cjs, compiled from its code cache (scripts/bundle-cli.mjs):
 * spread over threads, an exploration counts exactly what it counts in one thread.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/core/paths.js';
import { tempFolder } from '../tempFolder.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'faultlab.cjs');
const OUT = tempFolder('bundle');
/** The JSON report (a violation found exits 1, and its report is the same document). */
const explore = (...args: string[]) => {
  const child = spawnSync(process.execPath, [BIN, 'explore', '--json', '--out', OUT, ...args], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
  return JSON.parse(child.stdout) as { runs: number; violations: unknown[] };
};

describe('the bundles', () => {
  // One character past ASCII makes Node decode a whole bundle as UTF-8 into a two-byte string at every start.
  it('are ASCII only, each of them', async () => {
    for (const file of ['faultlab.cjs', 'explore-worker.cjs', 'torture-worker.cjs']) {
      const bytes = readFileSync(join(PACKAGE_ROOT, 'dist', 'bundle', file));
      expect(bytes.findIndex((byte) => byte > 0x7f), file).toBe(-1);
    }
  });

  it('still wrap Chinese text at its punctuation (the escaped regular expressions mean what they meant)', async () => {
    const child = spawnSync(process.execPath, [BIN, 'run', 'lost_reply', '--lang', 'zh', '--no-color'], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
    expect(child.status).toBe(0);
    const lines = child.stdout.split('\n');
    expect(lines.filter((line) => line.includes('TransientError —— 不确定失败'))).toHaveLength(1);
    // Closing punctuation stays at the end of its line, never starts the next one.
    expect(lines.filter((line) => /^\s*[、。，．：；！？）」』》〉】]/.test(line))).toEqual([]);
  });
});

describe('the built CLI exploring on worker threads', () => {
  it('has the worker bundle, its loader and its code cache', async () => {
    for (const file of ['explore-worker.cjs', 'explore-worker.load.cjs', 'explore-worker.cjs.cache']) expect(existsSync(join(PACKAGE_ROOT, 'dist', 'bundle', file))).toBe(true);
  });

  it('counts depth 1 on two threads as on one', async () => {
    const two = explore('happy_path', 'lost_reply', '--workers', '2');
    expect(two.runs).toBe(110);
    expect(two).toEqual(explore('happy_path', 'lost_reply', '--workers', '1'));
  }, 60_000);

  it('counts depth 2 on two threads as on one, batches queued ahead at the worker', async () => {
    const two = explore('read_only', '--depth', '2', '--workers', '2');
    expect(two.runs).toBe(285);
    expect(two).toEqual(explore('read_only', '--depth', '2', '--workers', '1'));
  }, 60_000);

  it("loads a learner's file in the bundled worker, and finds on two threads what one thread finds", async () => {
    const file = join(PACKAGE_ROOT, 'test', 'fixtures', 'learners', 'NewKeyPerAttempt.ts');
    const two = explore('happy_path', 'lost_reply', '--runner', file, '--workers', '2');
    expect(two.runs).toBe(109);
    expect(two.violations.length).toBeGreaterThan(0);
    expect(two).toEqual(explore('happy_path', 'lost_reply', '--runner', file, '--workers', '1'));
  }, 60_000);
});
