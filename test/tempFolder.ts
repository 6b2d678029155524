/**
 * A temporary folder for one test file, removed when the file's tests are done. Left behind, a full test run
 * added ~40 folders to the system's temporary folder, every run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
afterAll(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A new folder `faultlab-<prefix>-XXXXXX` in the system's temporary folder. */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `faultlab-${prefix}-`));
  made.push(dir);
  return dir;
}
