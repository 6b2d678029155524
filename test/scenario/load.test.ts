/**
 * Bad input gets a clear error and nothing is lost: every problem of every file, each at its file, line,
 * column and field; exit code 2; nothing run.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../tempFolder.js';
import { PACKAGE_ROOT, SCENARIO_SCHEMA_PATH, SCENARIOS_DIR } from '../../src/core/paths.js';
import { fastValidator } from '../../src/scenario/fastValidator.js';
import { loadAll } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/ScenarioError.js';
import { cli, problemLines } from '../support.js';

const dir = tempFolder('load');
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const problems = (...paths: string[]) => {
  try {
    loadAll(paths, { cwd: PACKAGE_ROOT });
  } catch (error) {
    if (error instanceof ScenarioError) return problemLines(error).map((line) => line.replace(`${dir}/`, ''));
    throw error;
  }
  return [];
};

const HAPPY = readFileSync(join(SCENARIOS_DIR, 'happy_path.yaml'), 'utf8');

/** `line:col` (1-based) of the first occurrence of `needle` after `after` in `text`: where an error must point. */
function at(text: string, needle: string, after = ''): string {
  const offset = text.indexOf(needle, after ? text.indexOf(after) : 0);
  if (offset < 0) throw new Error(`${needle} not in text`);
  const lines = text.slice(0, offset).split('\n');
  return `${lines.length}:${lines.at(-1)!.length + 1}`;
}

describe('loading scenarios', () => {
  it('reads every shipped scenario file with the schema comment on its first line', () => {
    const files = readdirSync(SCENARIOS_DIR).filter((f) => f.endsWith('.yaml'));
    expect(files).toHaveLength(17);
    for (const f of files) expect(readFileSync(join(SCENARIOS_DIR, f), 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=./scenario.schema.json');
  });

  it('reports a schema violation at file:line:col with the field, and every one of them', () => {
    const text = HAPPY.replace('camera: { available: 3, version: 0 }', 'camera: { available: -1, version: 0 }')
      .replace('  max_calls: 8', '  max_call: 8')
      .replace('faults: []', 'faults:\n  - kind: lost_reply\n    at: { tool: reserve, attempt: 0 }\n  - kind: explode\n    at: { call: 2 }')
      .replace('status: succeeded', 'status: ok');
    expect(problems(file('bad.yaml', text))).toEqual([
      `bad.yaml:${at(text, '-1')}: inventory.items.camera.available: must be an integer from 0 to 1,000,000 (got -1)`,
      `bad.yaml:${at(text, 'max_call:')}: task.max_call: unknown field — did you mean max_calls?`,
      `bad.yaml:${at(text, '0 }', 'attempt: 0')}: faults[0].at.attempt: must be an integer from 1 to 1,000 (got 0)`,
      `bad.yaml:${at(text, 'explode')}: faults[1].kind: must be one of "transient", "lost_reply", "crash_before_commit", "crash_after_commit", "crash_after_event", "concurrent_reserve", "duplicate_delivery", "worker_pause", "worker_crash", "lease_expires", "heartbeat_starved", "claim_reply_lost", "late_delivery", "redeliver_task", "revoke_permission" (got "explode")`,
      `bad.yaml:${at(text, 'ok', 'status:')}: expect.status: must be one of "succeeded", "gave_up", "retry_exhausted", "tool_error", "policy_error", "budget_exhausted" (got "ok")`,
    ]);
  });

  it('reports a missing required field at its parent', () => {
    const bad = file('missing.yaml', HAPPY.replace(/^explain: >-\n(  .*\n)+/m, ''));
    expect(problems(bad)).toEqual([`missing.yaml:${at(HAPPY, 'id:')}: explain: missing (required)`]);
  });

  it('names the fault fields that do not fit the fault kind', () => {
    const text = HAPPY.replace('faults: []', 'faults:\n  - kind: crash_after_event\n    at: { attempt: 1 }\n  - kind: transient\n    at: { label: prepared }\n    qty: 2');
    const why = 'not allowed here for this fault kind (crash_after_event takes label/seq/tool; redeliver_task only after_ms; the others take tool/attempt/call; only concurrent_reserve takes qty, only late_delivery delay_ms)';
    expect(problems(file('kinds.yaml', text))).toEqual([
      `kinds.yaml:${at(text, '{ attempt')}: faults[0].at: crash_after_event needs at.label or at.seq (which saved event to crash after)`,
      `kinds.yaml:${at(text, 'attempt: 1')}: faults[0].at.attempt: ${why}`,
      `kinds.yaml:${at(text, 'label: prepared')}: faults[1].at.label: ${why}`,
      `kinds.yaml:${at(text, 'qty: 2')}: faults[1].qty: ${why}`,
    ]);
  });

  it('reports YAML syntax errors with their position', () => {
    const bad = file('syntax.yaml', 'id: x\ntitle: [unclosed\n');
    expect(problems(bad)).toEqual(['syntax.yaml:3:1: YAML syntax: Flow sequence in block collection must be sufficiently indented and end with a ]']);
    const dupText = HAPPY.replace('title:', 'id: again\ntitle:');
    expect(problems(file('dup.yaml', dupText))[0]).toMatch(new RegExp(`^dup\\.yaml:${at(dupText, 'id: again')}: YAML syntax: Map keys must be unique`));
  });

  it('checks what the schema cannot: references to earlier observations and expected stock of known items', () => {
    const text = HAPPY.replace('"@get_stock.version"', '"@get_stok.version"').replace('stock: { camera: 2 }', 'stock: { camera: 2, drone: 0 }');
    expect(problems(file('refs.yaml', text))).toEqual([
      `refs.yaml:${at(text, '"@get_stok')}: policy.script[3].reserve.expected_version: @get_stok.version refers to get_stok, which no earlier step calls (earlier: search_docs, read_doc, get_stock)`,
      `refs.yaml:${at(text, 'drone')}: expect.stock.drone: no item drone in inventory.items (camera, tripod)`,
    ]);
  });

  it('refuses a crash after an event that never has a pending action, named with a tool: it could never fire', () => {
    const text = HAPPY.replace('faults: []', 'faults:\n  - kind: crash_after_event\n    at: { label: observed, tool: reserve }');
    expect(problems(file('never.yaml', text))).toEqual([
      `never.yaml:${at(text, 'tool: reserve }')}: faults[0].at.tool: a crash after event observed can never fire with tool reserve: nothing is pending when observed is saved (drop tool, or name an event saved while reserve is pending: prepared, attempt_started, transient:…)`,
    ]);
    const fine = HAPPY.replace('faults: []', 'faults:\n  - kind: crash_after_event\n    at: { label: prepared, tool: reserve }');
    expect(problems(file('fine.yaml', fine))).toEqual([]);
  });

  it('refuses a scenario the reference itself could not end within the step bound (invariant 7): 100 transients, 100 retries', () => {
    const faults = Array.from({ length: 100 }, (_, i) => `  - kind: transient\n    at: { tool: reserve, attempt: ${i + 1} }`).join('\n');
    const text = HAPPY.replace('max_calls: 8', 'max_calls: 200').replace('max_retries: 2', 'max_retries: 100').replace('faults: []', `faults:\n${faults}`);
    expect(problems(file('impossible.yaml', text))).toEqual([
      `impossible.yaml:${at(text, '200')}: task.max_calls: the reference may need 202 steps here (200 call(s), 1 crash(es) counting one the explorer adds, 1 deliveries), over the bound of 100 steps every run must end within (invariant 7): lower task.max_calls or task.max_retries, or use fewer faults`,
    ]);
    // The same budget, with retries the script can spend in the bound: fine.
    expect(problems(file('possible.yaml', HAPPY.replace('max_calls: 8', 'max_calls: 200').replace('max_retries: 2', 'max_retries: 20')))).toEqual([]);
  });

  it('collects the problems of all files and unknown targets together', () => {
    const a = file('a.yaml', 'id: x\ntitle: [unclosed\n');
    const b = file('b.yaml', HAPPY.replace('status: succeeded', 'status: ok'));
    const found = problems(a, b, join(dir, 'nowhere.yaml'));
    expect(found.map((line) => line.split(':')[0])).toEqual(['nowhere.yaml', 'a.yaml', 'b.yaml']);
    expect(found[0]).toBe('nowhere.yaml: no such file, folder or scenario id (see `faultlab list`)');
  });

  it('refuses two scenarios with one id, pointing at the second id', () => {
    const copy = file('copy.yaml', HAPPY);
    expect(problems(join(SCENARIOS_DIR, 'happy_path.yaml'), copy)).toEqual([`copy.yaml:${at(HAPPY, 'happy_path')}: id: happy_path is already the id of scenarios/happy_path.yaml`]);
  });

  it('makes the CLI exit 2 with the problems on stderr and run nothing', async () => {
    const bad = file('cli.yaml', HAPPY.replace('status: succeeded', 'status: ok'));
    const out = await cli(['run', bad, 'happy_path']);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/cli\.yaml:\d+:11: expect\.status: must be one of/);
    expect(out.stderr).toContain('faultlab: 1 problem(s) in the scenario files; nothing was run');
  });

  it('ignores a build-time validator compiled from another version of the schema', () => {
    expect(fastValidator(SCENARIO_SCHEMA_PATH)).not.toBeNull(); // npm test builds first
    const edited = join(tempFolder('schema'), 'scenario.schema.json');
    copyFileSync(SCENARIO_SCHEMA_PATH, edited);
    writeFileSync(edited, readFileSync(edited, 'utf8').replace('"title": "faultlab scenario"', '"title": "edited"'));
    expect(fastValidator(edited)).toBeNull();
  });

  it('finds a lab by its id in scenarios/labs, and loads it as kind lab with where it was read from', () => {
    const [lab] = loadAll(['thundering_herd'], { cwd: PACKAGE_ROOT });
    expect(lab).toMatchObject({ type: 'other', kind: 'lab', id: 'thundering_herd', file: 'scenarios/labs/thundering_herd.yaml', readFrom: join(SCENARIOS_DIR, 'labs', 'thundering_herd.yaml') });
  });

  it('knows no kind pillar any more: a lab says kind lab', () => {
    const text = readFileSync(join(SCENARIOS_DIR, 'labs', 'backoff_schedule.yaml'), 'utf8').replace('kind: lab', 'kind: pillar');
    expect(problems(file('old_kind.yaml', text))).toEqual([`old_kind.yaml:${at(text, 'pillar')}: kind: unknown scenario kind "pillar" (known: runner, lab, postgres_race)`]);
  });
});
