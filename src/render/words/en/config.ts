/**
 * A durability configuration value outside its range (src/durability: ConfigError and the checks of
 * config/fields.ts): `FIELD must be ALLOWED, got GIVEN`. The field is the dotted path as written in YAML.
 * The message starts with the field and a space in every language: a lab's input error cuts it off there
 * and shows the rest at the field's line (src/labs/ScenarioInputError.ts).
 */
export const config = {
  'config.mustBe': '{field} must be {allowed}, got {given}',
  'config.mustBe.atField': 'must be {allowed}, got {given}',
  'config.missing': 'nothing (the field is missing)',
  'config.integer': 'an integer',
  'config.number': 'a number',
  'config.openClosed': '{kind} in ({low}, {high}]',
  'config.closed': '{kind} in [{low}, {high}]',
  'config.bounded': '{kind} {bounds}',
  'config.bound.above': '> {n}',
  'config.bound.atLeast': '>= {n}',
  'config.bound.atMost': '<= {n}',
  'config.bound.and': '{first} {second}',
  'config.nonEmptyString': 'a non-empty string',
  'config.boolean': 'true or false',
  'config.errorCodes': 'a list of error codes (non-empty strings)',
  'config.oneOf': 'one of {allowed}',
  'config.mapping': 'a mapping (key: value lines)',
  'config.knownField': 'one of the known fields ({known})',
  'config.readableYaml': 'a readable YAML file',
  'config.topLevel': '(top level)',
  'config.breakerWindow': 'an integer in [1, window_size = {window}] (a window of {window} results never reaches {min}, so the breaker could never open)',
} as const;
