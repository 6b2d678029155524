/**
 * What is wrong with a scenario file, said at `file:line:col: field:` (that prefix and the field path, as
 * written in the YAML, stay in the code). Schema errors, the checks a schema cannot express, reading the
 * file, YAML itself, the limits, and the one line that sums them up.
 */
export const scenario = {
  'scenario.summary': '{count} problem(s) in the scenario files; nothing was run',

  // ── finding the files (load.ts) ───────────────────────────────────────────────────────────────────
  'scenario.target.empty': 'an empty path names no scenario',
  'scenario.target.cannotReadFolder': 'cannot read the folder: {reason}',
  'scenario.target.emptyFolder': 'no scenario found in {dir} (a scenario is a .yaml or .yml file in it; sub-folders are not searched)',
  'scenario.target.unknown': 'no such file, folder or scenario id (see `faultlab list`)',
  'scenario.kind.unknown': 'unknown scenario kind {kind} (known: {known})',
  'scenario.id.taken': '{id} is already the id of {first}',
  'scenario.notRunner': 'not a runner scenario',

  // ── reading the file (readText.ts, limits.ts) ─────────────────────────────────────────────────────
  'scenario.read.kind': 'cannot read: {kind}, not a scenario file',
  'scenario.read.folder': 'a folder',
  'scenario.read.fifo': 'a named pipe (FIFO)',
  'scenario.read.charDevice': 'a character device',
  'scenario.read.blockDevice': 'a block device',
  'scenario.read.socket': 'a socket',
  'scenario.read.notRegular': 'not a regular file',
  'scenario.read.failed': 'cannot read: {reason}',
  'scenario.read.tooLarge': 'too large: {size} (a scenario file is at most {max})',
  'scenario.read.tooLargeStream': 'too large: more than {max} (a scenario file is at most {max})',
  'scenario.read.nul': 'not a text file: a NUL byte at offset {offset} (a scenario is YAML text)',
  'scenario.read.notUtf8': 'not a text file: byte {offset} is not UTF-8 (a scenario is YAML text in UTF-8)',
  'scenario.bytes': '{count} bytes',

  // ── YAML (yamlSource.ts, load.ts) ─────────────────────────────────────────────────────────────────
  'scenario.yaml.cannotParse': 'YAML: cannot parse ({message})',
  'scenario.yaml.syntax': 'YAML syntax: {message}',
  // yaml's own message, in English; the Chinese catalogue says first what the common ones mean.
  'scenario.yaml.duplicateKey': 'YAML syntax: {message}',
  'scenario.yaml.badIndent': 'YAML syntax: {message}',
  'scenario.yaml.tabIndent': 'YAML syntax: {message}',
  'scenario.yaml.missingChar': 'YAML syntax: {message}',
  'scenario.yaml.unexpectedToken': 'YAML syntax: {message}',
  'scenario.yaml.nestedCompact': 'YAML syntax: {message}',
  'scenario.yaml.multilineKey': 'YAML syntax: {message}',
  'scenario.yaml.multipleDocs': 'a scenario file holds one YAML document, and a second one starts here (remove this `---` and what follows, or split the file)',
  'scenario.yaml.noAnchor': 'YAML alias *{name} names no anchor &{name} set before it',
  'scenario.yaml.tooManyAliases': 'more than {max} YAML aliases (*name) in one file (the limit)',
  'scenario.yaml.tooDeep': 'nested deeper than {max} levels of maps and lists (the limit)',
  'scenario.yaml.aliasesTooLarge': 'YAML aliases make the file more than {max} values once its aliases are expanded (the limit)',
  'scenario.yaml.aliasesTooDeep': 'YAML aliases make the file nested deeper than {max} levels (the limit)',
  'scenario.yaml.aliasesExpand': 'YAML aliases expand past the limit ({message})',
  'scenario.nonFinite': 'must be a finite number (got {got})',

  // ── the schema (validateSchema.ts) ────────────────────────────────────────────────────────────────
  'scenario.schema.required': 'missing (required)',
  'scenario.schema.unknownFieldGuess': 'unknown field — did you mean {guess}?',
  'scenario.schema.unknownFieldAllowed': 'unknown field (allowed: {allowed})',
  'scenario.schema.unknownField': 'unknown field',
  'scenario.schema.faultField':
    'not allowed here for this fault kind (crash_after_event takes label/seq/tool; redeliver_task only after_ms; the others take tool/attempt/call; only concurrent_reserve takes qty, only late_delivery delay_ms)',
  'scenario.schema.crashAfterEvent': 'crash_after_event needs at.label or at.seq (which saved event to crash after)',
  'scenario.schema.oneOf': 'must be one of {allowed} (got {got})',
  'scenario.schema.const': 'must be {allowed} (got {got})',
  'scenario.schema.type': 'must be {type} (got {got})',
  'scenario.schema.min': 'must be >= {limit} (got {got})',
  'scenario.schema.max': 'must be <= {limit} (got {got})',
  'scenario.schema.maxItems': 'at most {limit} entries (the limit; got {count})',
  'scenario.schema.maxLength': 'at most {limit} characters (the limit; got {count})',
  'scenario.schema.maxProperties': 'at most {limit} entries (the limit)',
  'scenario.schema.pattern': 'must match {pattern} (got {got})',
  'scenario.schema.scriptStep': 'a script step is exactly one entry: `tool_name: {args}` or `finish: succeeded|gave_up`',
  'scenario.schema.dependencies': 'comes with {other}: give both or neither',
  'scenario.schema.toolName': 'a tool name is snake_case (a-z, 0-9, _)',
  'scenario.schema.wrongFieldCount': 'wrong number of fields',
  'scenario.schema.fails': 'fails {keyword}',
  'scenario.schema.zhNeedsNote': 'zh is the Chinese of a note: it goes in a step only beside note:',
  'scenario.schema.noteStepFields': 'a note step holds its note and its Chinese (zh), nothing else (got {got})',
  // Ajv's own words, in English, for the keywords said as Ajv says them.
  'scenario.schema.minProperties': 'must NOT have fewer than {limit} properties',
  'scenario.schema.minItems': 'must NOT have fewer than {limit} items',
  'scenario.schema.minLength': 'must NOT have fewer than {limit} characters',
  'scenario.schema.exclusiveMinimum': 'must be > {limit}',
  'scenario.schema.uniqueItems': 'must NOT have duplicate items (items ## {second} and {first} are identical)',
  'scenario.range.between': 'an integer from {min} to {max}',
  'scenario.range.atLeast': 'an integer >= {min}',
  'scenario.range.atMost': 'an integer <= {max}',
  'scenario.range.any': 'an integer',
  // JSON Schema's type names, as the "must be …" above says them.
  'scenario.type.object': 'object',
  'scenario.type.array': 'array',
  'scenario.type.string': 'string',
  'scenario.type.number': 'number',
  'scenario.type.boolean': 'boolean',
  'scenario.type.null': 'null',

  // ── what a schema cannot express (toScenario.ts) ──────────────────────────────────────────────────
  'scenario.ref.noEarlierStep': '{value} refers to {tool}, which no earlier step calls (earlier: {earlier})',
  'scenario.crashAfterEvent.neverFires': 'a crash after event {label} can never fire with tool {tool}: nothing is pending when {label} is saved (drop tool, or name an event saved while {tool} is pending: prepared, attempt_started, transient:…)',
  'scenario.steps.overBound': 'the reference may need {most} steps here ({calls} call(s), {crashes} crash(es) counting one the explorer adds, {deliveries} deliveries), over the bound of {bound} steps every run must end within (invariant 7): lower task.max_calls or task.max_retries, or use fewer faults',
  'scenario.ref.none': 'none',
  'scenario.durability.figuresWithoutBlock': 'the pillars have figures only with a durability block (durability: retry, breaker, dlq)',
  'scenario.durability.capBelowFirst': 'must be >= initial_delay_ms ({initial}): the cap cannot be below the first wait',
  'scenario.durability.windowTooSmall': 'must be <= window_size ({window}): a window of {window} results never reaches {min}, so the breaker could never open',
  'scenario.stock.unknownItem': 'no item {item} in inventory.items ({items})',
} as const;
