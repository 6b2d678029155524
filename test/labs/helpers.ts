import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { PillarScenario } from '../../src/labs/index.js';

export const PILLARS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scenarios', 'pillars');

export function scenarioFiles(): string[] {
  return readdirSync(PILLARS_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(PILLARS_DIR, f));
}

export function loadScenario(idOrPath: string): PillarScenario {
  const path = idOrPath.endsWith('.yaml') ? idOrPath : join(PILLARS_DIR, `${idOrPath}.yaml`);
  return parse(readFileSync(path, 'utf8')) as PillarScenario;
}

export const idOf = (path: string): string => basename(path, '.yaml');
