/**
 * The quick yes/no a valid scenario needs: the standalone validator that `npm run build` compiled from the
 * schema (no Ajv at start-up). It is used only if it was compiled from the schema as it is now; otherwise
 * null, and the caller validates with Ajv at run time. A "no" always goes to the precise, slower path.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { PACKAGE_ROOT } from '../core/paths.js';

type Check = ((data: unknown) => boolean) & { schemaSha256?: string };

const require = createRequire(import.meta.url);
const cache = new Map<string, Check | null>();

/**
 * The CLI's bundle carries the compiled validators in itself, by file name (scripts/bundle-cli.mjs), so
 * they come compiled from its code cache rather than read and compiled from dist/generated on every start.
 * They are the same build's files, and are held to the schema's hash all the same.
 */
const CARRIED = Symbol.for('faultlab.compiledValidators');

function compiledValidator(file: string): Check | null {
  const carried = (globalThis as Record<symbol, Record<string, (() => unknown) | undefined> | undefined>)[CARRIED]?.[basename(file)];
  if (carried !== undefined) return carried() as Check;
  return existsSync(file) ? (require(file) as Check) : null;
}

export function fastValidator(schemaPath: string): Check | null {
  if (cache.has(schemaPath)) return cache.get(schemaPath)!;
  const compiled = join(PACKAGE_ROOT, 'dist', 'generated', basename(schemaPath).replace(/\.json$/, '.validate.cjs'));
  let check: Check | null = null;
  const candidate = compiledValidator(compiled);
  if (candidate !== null) {
    const sha = createHash('sha256').update(readFileSync(schemaPath, 'utf8')).digest('hex');
    if (candidate.schemaSha256 === sha) check = candidate;
  }
  cache.set(schemaPath, check);
  return check;
}
