import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import {
  pillarScenarioSchemaPath,
  renderPillarRun,
  runPillarScenario,
  ScenarioInputError,
  type PillarScenario,
} from '../../src/labs/index.js';
import { idOf, loadScenario, PILLARS_DIR, scenarioFiles } from './helpers.js';

const schema = JSON.parse(readFileSync(pillarScenarioSchemaPath, 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

const ISSUE_4 = [
  'breaker_trips_and_recovers',
  'breaker_exact_threshold',
  'abandoned_probe_rearms',
  'exhausted_to_dlq_then_replay',
  'non_retryable_stops',
  'backoff_schedule',
  'thundering_herd',
  'checkpoint_resume',
  'checkpoint_fork_and_rewind',
  'dedup_window_expiry',
  'concurrent_check_and_record',
];

const plain = (s: PillarScenario, seed = 42): string => renderPillarRun(runPillarScenario(s, { seed }), { color: false });

describe('the pillar scenario files', () => {
  it('include the eleven scenarios of issue 4', () => {
    expect(scenarioFiles().map(idOf)).toEqual(expect.arrayContaining(ISSUE_4));
  });

  it('live in scenarios/pillars next to the schema the engine exports, by absolute path', () => {
    expect(isAbsolute(pillarScenarioSchemaPath)).toBe(true);
    expect(pillarScenarioSchemaPath.startsWith(PILLARS_DIR)).toBe(true);
  });

  it.each(scenarioFiles().map((f) => [idOf(f), f]))('%s: names its schema first, is kind pillar, and its id is its file name', (id, file) => {
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./pillar.schema.json');
    const scenario = parse(text) as PillarScenario;
    expect(scenario.kind).toBe('pillar');
    expect(scenario.id).toBe(id);
    expect(scenario.explain.length).toBeGreaterThan(200);
  });

  it.each(scenarioFiles().map((f) => [idOf(f), f]))('%s: is valid against pillar.schema.json', (_id, file) => {
    const ok = validate(parse(readFileSync(file, 'utf8')));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });
});

describe('every pillar scenario holds, and its trace is a function of the seed', () => {
  it.each(scenarioFiles().map((f) => [idOf(f)]))('%s passes every check with seed 42', (id) => {
    const run = runPillarScenario(loadScenario(id), { seed: 42 });
    expect(run.checks.filter((c) => !c.passed).map((c) => c.message)).toEqual([]);
    expect(run.checks.length).toBeGreaterThan(0);
    expect(run.passed).toBe(true);
    expect(run.checks.every((c) => c.kind === 'expectation' && c.id.length > 0)).toBe(true);
  });

  it.each(scenarioFiles().map((f) => [idOf(f)]))('%s renders byte-identical text for the same seed', (id) => {
    expect(plain(loadScenario(id))).toBe(plain(loadScenario(id)));
  });

  it.each(scenarioFiles().filter((f) => !idOf(f).startsWith('thundering')).map((f) => [idOf(f)]))('%s also passes with seeds 1, 7 and 2024', (id) => {
    for (const seed of [1, 7, 2024]) expect(runPillarScenario(loadScenario(id), { seed }).passed).toBe(true);
  });

  it('draws different jitter for a different seed (the seed really is the only source of chance)', () => {
    expect(plain(loadScenario('backoff_schedule'), 42)).not.toBe(plain(loadScenario('backoff_schedule'), 43));
  });

  it('renders plain text without colour codes, and colour when asked', () => {
    const run = runPillarScenario(loadScenario('breaker_exact_threshold'), { seed: 42 });
    expect(renderPillarRun(run, { color: false })).not.toMatch(/\u001b\[/);
    expect(renderPillarRun(run, { color: true })).toMatch(/\u001b\[/);
  });
});

describe('the trace shows the virtual time of every event, every transition, every backoff delay, every DLQ record', () => {
  const traceLines = (text: string): string[] => {
    const lines = text.split('\n');
    const start = lines.indexOf('trace (virtual time)');
    const end = lines.indexOf('', start);
    return lines.slice(start + 1, end);
  };

  it.each(scenarioFiles().map((f) => [idOf(f)]))('%s: every trace line starts with its virtual time', (id) => {
    const lines = traceLines(plain(loadScenario(id)));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^ {2}t= *\d+\.\d{3} s {2}/);
  });

  it('prints one line per breaker transition, in order', () => {
    const run = runPillarScenario(loadScenario('breaker_trips_and_recovers'), { seed: 42 });
    const text = renderPillarRun(run, { color: false });
    expect(traceLines(text).filter((l) => / (closed|open|half_open) → (closed|open|half_open) /.test(l)).map((l) => l.replace(/^.*memory_service: /, '').split('  ')[0])).toEqual([
      'closed → open',
      'open → half_open',
      'half_open → closed',
    ]);
    expect(text).toContain('t= 0.900 s  breaker memory_service: closed → open');
  });

  it('prints every backoff delay with its time', () => {
    const run = runPillarScenario(loadScenario('backoff_schedule'), { seed: 42 });
    const backoffs = run.events.filter((e) => e.type === 'retry.backoff');
    const lines = traceLines(renderPillarRun(run, { color: false })).filter((l) => l.includes('backoff: wait'));
    expect(lines).toHaveLength(backoffs.length);
    expect(lines[0]).toBe('  t= 0.000 s  backoff: wait 500 ms before attempt 2 (capped 500 ms, jitter none)');
  });

  it('prints every DLQ record with its whole original operation', () => {
    const text = plain(loadScenario('exhausted_to_dlq_then_replay'));
    const line = traceLines(text).find((l) => l.includes('DLQ: dlq-000001 pending'));
    expect(line).toContain('last error SERVICE_UNAVAILABLE');
    expect(line).toContain('"content":{"page":"Onboarding","text":"Step 3: ask for a badge"}');
    expect(text).toContain('DLQ: dlq-000001 pending → replayed');
  });
});

describe('checks can fail, and say why', () => {
  it('fails a wrong expectation with expected, actual and what the figure means', () => {
    const scenario = loadScenario('breaker_exact_threshold');
    const run = runPillarScenario({ ...scenario, expect: { 'snapshots.after_ten.state': 'open', calls_reaching_dependency: 11 } }, { seed: 42 });
    expect(run.passed).toBe(false);
    expect(run.checks[0]).toMatchObject({ id: 'snapshots.after_ten.state', passed: false, expected: 'open', actual: 'closed' });
    expect(run.checks[0]?.message).toBe('expected snapshots.after_ten.state = "open", got "closed" — the breaker at the snapshot steps');
    expect(renderPillarRun(run, { color: false })).toContain('FAIL  1 of 2 checks failed (seed 42)');
  });

  it('fails an expectation that names no figure, listing the figures there are', () => {
    const run = runPillarScenario({ ...loadScenario('breaker_exact_threshold'), expect: { rejected_while_closed: 0 } }, { seed: 42 });
    expect(run.checks[0]?.passed).toBe(false);
    expect(run.checks[0]?.message).toMatch(/no such figure \(figures: calls_made, calls_reaching_dependency/);
  });

  it('refuses an unknown experiment with a typed error', () => {
    expect(() => runPillarScenario({ ...loadScenario('breaker_exact_threshold'), experiment: 'magic' }, { seed: 42 })).toThrow(ScenarioInputError);
  });

  it('refuses a report for a call that was never held in flight', () => {
    const s = { ...loadScenario('breaker_exact_threshold'), steps: [{ report: { call: 'ghost', result: 'ok' } }] };
    expect(() => runPillarScenario(s, { seed: 42 })).toThrow(/no call "ghost" in flight/);
  });

  it('refuses a replay of a step that made no DLQ record', () => {
    const s = loadScenario('non_retryable_stops');
    expect(() => runPillarScenario({ ...s, steps: [...(s.steps as object[]), { replay: { of: 'denied', label: 'again' } }] }, { seed: 42 })).toThrow(
      /made no DLQ record/,
    );
  });
});

describe('pillar.schema.json is precise', () => {
  const base = (): Record<string, unknown> => structuredClone(loadScenario('breaker_exact_threshold')) as Record<string, unknown>;
  const errorsOf = (value: unknown): string[] => (validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));

  it('requires explain', () => {
    const s = base();
    delete s.explain;
    expect(errorsOf(s)).toContain(" must have required property 'explain'");
  });

  it('refuses an unknown top-level field, and a field of another experiment', () => {
    expect(errorsOf({ ...base(), colour: 'red' }).some((e) => e.includes('must NOT have additional properties'))).toBe(true);
    expect(errorsOf({ ...base(), rounds: 3 }).some((e) => e.includes('must NOT have additional properties'))).toBe(true);
  });

  it('refuses a step with two actions', () => {
    expect(errorsOf({ ...base(), steps: [{ wait_ms: 5, note: 'x' }] })).toContain('/steps/0 must NOT have more than 1 properties');
  });

  it('refuses a failure result that is neither ok nor fail', () => {
    expect(errorsOf({ ...base(), steps: [{ calls: { n: 1, result: 'maybe' } }] })).toContain('/steps/0/calls/result must be equal to one of the allowed values');
  });

  it('refuses an expectation naming a figure this experiment does not have', () => {
    expect(errorsOf({ ...base(), expect: { effects: 1 } }).some((e) => e.includes('/expect must NOT have additional properties'))).toBe(true);
  });

  it('refuses ":" in an agent_id', () => {
    const s = structuredClone(loadScenario('non_retryable_stops')) as unknown as { operations: Record<string, { agent_id: string }> };
    (s.operations.read_payroll as { agent_id: string }).agent_id = 'team:a';
    expect(errorsOf(s)).toContain('/operations/read_payroll/agent_id must match pattern "^[^:]+$"');
  });

  it('refuses an outcome that does not exist', () => {
    const s = structuredClone(loadScenario('non_retryable_stops')) as Record<string, unknown>;
    s.expect = { 'outcomes.denied': 'failed' };
    expect(errorsOf(s)).toContain('/expect/outcomes.denied must be equal to one of the allowed values');
  });

  it('refuses a breaker override with a threshold above 1', () => {
    const s = { ...base(), config: { circuit_breaker: { dependencies: { memory_service: { failure_rate_threshold: 1.5 } } } } };
    expect(errorsOf(s)).toContain('/config/circuit_breaker/dependencies/memory_service/failure_rate_threshold must be <= 1');
  });
});
