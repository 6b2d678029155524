import { describe, expect, it } from 'vitest';
import { BreakerRegistry } from '../../../src/durability/breaker/BreakerRegistry.js';
import { DEFAULT_DURABILITY_CONFIG } from '../../../src/durability/config/defaults.js';
import { UnknownDependencyError } from '../../../src/durability/errors.js';
import type { BreakerConfig } from '../../../src/durability/config/types.js';
import type { StateTransition } from '../../../src/durability/events.js';
import { bench } from '../helpers.js';

const WIKI = DEFAULT_DURABILITY_CONFIG.circuitBreaker.dependencies.wiki_service as BreakerConfig;

function registry() {
  const b = bench();
  return { ...b, reg: new BreakerRegistry({ db: b.db, clock: b.clock, events: b.sink }) };
}

describe('one breaker per dependency', () => {
  it('knows the three default dependencies', () => {
    expect(registry().reg.dependencies()).toEqual(['external_mcp_client', 'memory_service', 'wiki_service']);
  });

  it('opens one route without touching another', () => {
    const { reg } = registry();
    for (let i = 0; i < 5; i += 1) {
      reg.beforeCall('external_mcp_client');
      reg.afterCall('external_mcp_client', false);
    }
    expect(reg.state('external_mcp_client')).toBe('open');
    expect(reg.state('memory_service')).toBe('closed');
    expect(reg.beforeCall('memory_service').admitted).toBe(true);
  });

  it('tells subscribers about every dependency’s transitions', () => {
    const { reg } = registry();
    const heard: StateTransition[] = [];
    reg.onTransition((t) => heard.push(t));
    for (let i = 0; i < 5; i += 1) reg.afterCall('external_mcp_client', false);
    reg.forceClose('external_mcp_client');
    expect(heard.map((t) => `${t.dependency} ${t.from}→${t.to}`)).toEqual([
      'external_mcp_client closed→open',
      'external_mcp_client open→closed',
    ]);
  });

  it('forwards the ticket both ways: a re-armed probe’s late success is ignored through the registry too', () => {
    const { reg, clock } = registry();
    for (let i = 0; i < 5; i += 1) reg.afterCall('external_mcp_client', false);
    clock.advance(60_000);
    const stray = reg.beforeCall('external_mcp_client');
    clock.advance(30_000); // probe timeout: the slot is re-armed
    const live = reg.beforeCall('external_mcp_client');
    if (!stray.admitted || !live.admitted) throw new Error('both probes should be admitted');
    expect(live.ticket).toBe(stray.ticket + 1);
    expect(reg.afterCall('external_mcp_client', true, stray.ticket)).toBe(false);
    expect(reg.state('external_mcp_client')).toBe('half_open');
    expect(reg.afterCall('external_mcp_client', true, live.ticket)).toBe(true);
    expect(reg.state('external_mcp_client')).toBe('closed');
  });

  it('refuses an unknown dependency with a typed error that says where to configure it', () => {
    const { reg } = registry();
    expect(() => reg.beforeCall('payments')).toThrow(UnknownDependencyError);
    expect(() => reg.beforeCall('payments')).toThrow(/circuit_breaker.dependencies/);
  });
});

describe('upsertConfig', () => {
  it('adds a breaker for a new dependency', () => {
    const { reg } = registry();
    reg.upsertConfig({ ...WIKI, dependency: 'payments' });
    expect(reg.beforeCall('payments').admitted).toBe(true);
  });

  it('keeps an open breaker open when its thresholds change', () => {
    const { reg } = registry();
    for (let i = 0; i < 8; i += 1) reg.afterCall('wiki_service', false);
    expect(reg.state('wiki_service')).toBe('open');
    reg.upsertConfig({ ...WIKI, failureRateThreshold: 0.9 });
    expect(reg.state('wiki_service')).toBe('open');
    expect(reg.breaker('wiki_service').config.failureRateThreshold).toBe(0.9);
  });

  it('rejects an invalid update and keeps the old configuration', () => {
    const { reg } = registry();
    expect(() => reg.upsertConfig({ ...WIKI, probeSuccessRequired: 0 })).toThrow(/probe_success_required/);
    expect(reg.breaker('wiki_service').config).toEqual(WIKI);
  });
});
