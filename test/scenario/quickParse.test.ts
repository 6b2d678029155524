/**
 * The parsed scenarios kept at build time stand in for js-yaml only where they are exactly right: a shipped
 * file's kept value is js-yaml's value of its text, and any other text is parsed afresh.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load as loadYaml } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import { PARSED_SCENARIOS_PATH, parseYaml, quickParse } from '../../src/scenario/quickParse.js';

const HAPPY = readFileSync(join(SCENARIOS_DIR, 'happy_path.yaml'), 'utf8');

describe('the parsed scenarios kept at build time', () => {
  it('are kept for every shipped runner scenario, each exactly as js-yaml parses its text', () => {
    expect(existsSync(PARSED_SCENARIOS_PATH)).toBe(true); // npm test builds first
    const kept = new Map(JSON.parse(readFileSync(PARSED_SCENARIOS_PATH, 'utf8')) as [string, string][]);
    const shipped = readdirSync(SCENARIOS_DIR).filter((f) => f.endsWith('.yaml'));
    expect(shipped.length).toBeGreaterThan(0);
    for (const name of shipped) expect(kept.has(readFileSync(join(SCENARIOS_DIR, name), 'utf8')), name).toBe(true);
    for (const [text, json] of kept) expect(JSON.parse(json)).toStrictEqual(parseYaml(text));
  });

  it('hands out a fresh copy each time', () => {
    const one = quickParse(HAPPY) as Record<string, unknown>;
    one['id'] = 'changed';
    expect((quickParse(HAPPY) as Record<string, unknown>)['id']).toBe('happy_path');
  });

  it('parses an edited text afresh', () => {
    const edited = HAPPY.replace('id: happy_path', 'id: happy_path_edited');
    expect(edited).not.toBe(HAPPY);
    expect(quickParse(edited)).toStrictEqual(loadYaml(edited));
    expect((quickParse(edited) as { id: string }).id).toBe('happy_path_edited');
  });

  it('lets js-yaml refuse what it refuses', () => {
    expect(() => quickParse('a: [1, 2\n')).toThrow();
  });
});
