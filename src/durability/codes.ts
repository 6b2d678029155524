/**
 * The messages of the pillars' configuration checks (src/durability/config, ConfigError): `FIELD must be
 * ALLOWED, got GIVEN`, the allowed range in words. The catalogues (src/render/words) word them.
 */
export const DURABILITY_CODES = [
  'config.mustBe',
  'config.mustBe.atField',
  'config.missing',
  'config.integer',
  'config.number',
  'config.openClosed',
  'config.closed',
  'config.bounded',
  'config.bound.above',
  'config.bound.atLeast',
  'config.bound.atMost',
  'config.bound.and',
  'config.nonEmptyString',
  'config.boolean',
  'config.errorCodes',
  'config.oneOf',
  'config.mapping',
  'config.knownField',
  'config.readableYaml',
  'config.topLevel',
  'config.breakerWindow',
] as const;

export type DurabilityCode = (typeof DURABILITY_CODES)[number];
