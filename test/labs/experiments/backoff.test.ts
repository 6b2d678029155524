import { describe, expect, it } from 'vitest';
import { runLab, ScenarioInputError, type LabScenario } from '../../../src/labs/index.js';
import { loadLab, refusal } from '../helpers.js';

/** The backoff table's input: an error code no policy knows, or a policy that cannot work, is bad input. */

const lab = (fields: Record<string, unknown>): LabScenario => ({ ...loadLab('backoff_schedule'), ...fields }) as LabScenario;

describe('bad input', () => {
  it('an unknown error code, at error_code, listing the codes the policies know', () => {
    const call = () => runLab(lab({ error_code: 'NETWORK_TIMOUT' }), { seed: 42 });
    expect(call).toThrow(ScenarioInputError);
    expect(refusal(call)).toMatchObject({
        path: ['error_code'],
        message: 'unknown error code "NETWORK_TIMOUT": no retry policy classifies it (known: INVALID_SCHEMA, NETWORK_TIMEOUT, NOT_FOUND, PERMISSION_DENIED, RATE_LIMITED, SERVICE_UNAVAILABLE)',
    });
  });

  it('a run whose cap is below its initial delay, at that run’s max_delay_ms', () => {
    const runs = [{ label: 'fine', operation_type: 'mcp_call' }, { label: 'broken', operation_type: 'mcp_call', max_delay_ms: 100 }];
    expect(refusal(() => runLab(lab({ runs }), { seed: 42 }))).toMatchObject({ path: ['runs', 1, 'max_delay_ms'], message: 'must be an integer >= 500, got 100' });
  });

  it('a run of an operation type with no policy, at its operation_type', () => {
    const runs = [{ label: 'nope', operation_type: 'calendar_sync' }];
    expect(() => runLab(lab({ runs }), { seed: 42 })).toThrow(expect.objectContaining({ path: ['runs', 0, 'operation_type'] }));
  });
});
