/**
 * The built CLI (bin/faultlab.cjs, the bundle `npm install` makes) starts the explorer's worker threads on
 * their own bundle, dist/bundle/explore-worker.cjs, compiled from its code cache (scripts/bundle-cli.mjs):
 * spread over threads, an exploration counts exactly what it counts in one thread.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

describe('the built CLI exploring on worker threads', () => {
  it('has the worker bundle, its loader and its code cache', () => {
    for (const file of ['explore-worker.cjs', 'explore-worker.load.cjs', 'explore-worker.cjs.cache']) expect(existsSync(join(PACKAGE_ROOT, 'dist', 'bundle', file))).toBe(true);
  });

  it('counts depth 1 on two threads as on one', () => {
    const two = explore('happy_path', 'lost_reply', '--workers', '2');
    expect(two.runs).toBe(110);
    expect(two).toEqual(explore('happy_path', 'lost_reply', '--workers', '1'));
  }, 60_000);

  it('counts depth 2 on two threads as on one, batches queued ahead at the worker', () => {
    const two = explore('read_only', '--depth', '2', '--workers', '2');
    expect(two.runs).toBe(285);
    expect(two).toEqual(explore('read_only', '--depth', '2', '--workers', '1'));
  }, 60_000);

  it("loads a learner's file in the bundled worker, and finds on two threads what one thread finds", () => {
    const file = join(PACKAGE_ROOT, 'test', 'fixtures', 'learners', 'NewKeyPerAttempt.ts');
    const two = explore('happy_path', 'lost_reply', '--runner', file, '--workers', '2');
    expect(two.runs).toBe(109);
    expect(two.violations.length).toBeGreaterThan(0);
    expect(two).toEqual(explore('happy_path', 'lost_reply', '--runner', file, '--workers', '1'));
  }, 60_000);
});
