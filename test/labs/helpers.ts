import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import { renderLabRun, runLab, ScenarioInputError, type LabRun, type LabScenario } from '../../src/labs/index.js';
import { said } from '../../src/render/words/index.js';
import { PLAIN } from '../../src/render/style.js';

export const LABS_DIR = join(SCENARIOS_DIR, 'labs');

export function labFiles(): string[] {
  return readdirSync(LABS_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(LABS_DIR, f));
}

export function loadLab(idOrPath: string): LabScenario {
  const path = idOrPath.endsWith('.yaml') ? idOrPath : join(LABS_DIR, `${idOrPath}.yaml`);
  return parse(readFileSync(path, 'utf8')) as LabScenario;
}

export const idOf = (path: string): string => basename(path, '.yaml');

/** A lab with its set-up fields replaced (the rest as in its file), run with a seed. */
export function runWith(id: string, fields: Record<string, unknown>, seed = 42): LabRun {
  return runLab({ ...loadLab(id), ...fields } as LabScenario, { seed });
}

/** The lab as `faultlab run` prints it, colour off. */
/** A lab's text on lines wide enough that none wraps: these tests read what a line says, not the layout. */
export const plain = (run: LabRun): string => renderLabRun(run, PLAIN, { lang: 'en', width: 1000 });

/** What a lab's bad input is refused with: where (the field's path), and what, in English. */
export function refusal(call: () => unknown): { path: readonly (string | number)[]; message: string } {
  try {
    call();
  } catch (error) {
    if (error instanceof ScenarioInputError) return { path: error.path, message: said('en', error.said) };
    throw error;
  }
  throw new Error('the lab ran');
}
