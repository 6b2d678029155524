import { describe, expect, it } from 'vitest';
import { runLab, ScenarioInputError, type LabScenario } from '../../../src/labs/index.js';
import { loadLab } from '../helpers.js';
import { said } from '../../../src/render/words/index.js';

/** Input a breaker lab cannot run is bad input, at the field that says so; nothing half-runs. */

const lab = (fields: Record<string, unknown>): LabScenario => ({ ...loadLab('breaker_exact_threshold'), ...fields }) as LabScenario;
const thrown = (fields: Record<string, unknown>): ScenarioInputError => {
  try {
    runLab(lab(fields), { seed: 42 });
  } catch (error) {
    if (error instanceof ScenarioInputError) return error;
    throw error;
  }
  throw new Error('the lab ran');
};

describe('bad input', () => {
  it('an unknown dependency, at dependency, naming the configured ones', () => {
    const e = thrown({ dependency: 'nowhere_service' });
    expect(e.path).toEqual(['dependency']);
    expect(said('en', e.said)).toBe('no circuit breaker is configured for "nowhere_service" (configured: memory_service, external_mcp_client, wiki_service; add one under config.circuit_breaker.dependencies)');
  });

  it('a report for a call never started, at its call field', () => {
    const e = thrown({ steps: [{ calls: { n: 1, result: 'ok' } }, { report: { call: 'ghost', result: 'ok' } }] });
    expect(e.path).toEqual(['steps', 1, 'report', 'call']);
    expect(said('en', e.said)).toBe('no call "ghost" in flight (never started, refused, or already reported)');
  });

  it('a call started twice, at the second start', () => {
    const e = thrown({ steps: [{ start: 'probe' }, { start: 'probe' }] });
    expect(e.path).toEqual(['steps', 1, 'start']);
  });

  it('a config override out of range, at its field, without repeating the field in the message', () => {
    const e = thrown({ config: { circuit_breaker: { dependencies: { memory_service: { min_request_count: 50 } } } } });
    expect(e.path).toEqual(['config', 'circuit_breaker', 'dependencies', 'memory_service', 'min_request_count']);
    expect(said('en', e.said)).toMatch(/^must be an integer in \[1, window_size = 20\]/);
  });
});
