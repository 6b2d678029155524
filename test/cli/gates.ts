/**
 * Where a gated runner's gate is (test/cli/fixtures/Gate.ts), seen from the test: in the temporary folder of
 * the box that runs it, reached through that process — `/proc/<pid>/root` followed by its TMPDIR — since a box
 * with a root of its own has no folder the test could name. (Without one, the same path leads to the box's
 * folder in the real file system.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The folder holding `gate-<token>.ready`, once some box has written it; null until then. */
export function gateFolder(token: string): string | null {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let tmp: string | undefined;
    try {
      tmp = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((entry) => entry.startsWith('TMPDIR='));
    } catch {
      continue; // gone, or not ours to read
    }
    if (tmp === undefined) continue;
    const folder = `/proc/${pid}/root${tmp.slice('TMPDIR='.length)}`;
    try {
      if (existsSync(join(folder, `gate-${token}.ready`))) return folder;
    } catch {
      // gone meanwhile
    }
  }
  return null;
}
