/**
 * Fuzzing the CLI as a careless or hostile user would: generated malformed scenario files and option
 * lists, each run through the CLI entry in-process. Whatever the input, the outcome is one of two: a
 * normal run (exit 0 or 1, and under --json one JSON document on stdout), or bad input (exit 2, a
 * message on stderr, nothing on stdout under --json). Never a stack trace, never an internal error.
 *
 * Bounded so the suite stays fast, and reproducible: a fixed seed by default; FAULTLAB_FUZZ_SEED and
 * FAULTLAB_FUZZ_RUNS explore further (fast-check prints the seed and the smallest failing case).
 */
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { cli, type Captured } from '../support.js';

const SEED = Number(process.env.FAULTLAB_FUZZ_SEED ?? 20_240_610);
const RUNS = Number(process.env.FAULTLAB_FUZZ_RUNS ?? 1);
const STACK = /\n\s+at .+[:(]\d+/;

const sandbox = mkdtempSync(join(tmpdir(), 'faultlab-fuzz-'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));
let files = 0;

/** The outcome contract, for any input. */
function expectContract(out: Captured, json: boolean): void {
  expect([0, 1, 2]).toContain(out.code);
  expect(out.stderr).not.toMatch(STACK);
  expect(out.stderr).not.toContain('internal error');
  if (out.code === 2) {
    expect(out.stderr.trim()).not.toBe('');
    if (json) expect(out.stdout).toBe('');
  } else if (json) {
    const doc = JSON.parse(out.stdout) as unknown;
    expect(doc).toBeTypeOf('object');
  }
}

// ── malformed scenarios ─────────────────────────────────────────────────────────────────────────────
const SEEDS = ['happy_path', 'lost_reply', 'retry_after_version_moved', 'crash_after_prepared'].map((id) => readFileSync(join(SCENARIOS_DIR, `${id}.yaml`), 'utf8'));

/** Values a YAML scalar can be replaced with: wrong types, non-numbers, YAML's own traps. */
const hostileScalar = fc.oneof(
  fc.constantFrom('.inf', '-.inf', '.nan', '1e400', '-1', '0', '2.5', '99999999999999999999', '0x10', '1_000', '~', 'null', 'true', '""', "''"),
  fc.constantFrom('[]', '{}', '*nope', '&a x', '!!binary aGk=', '!!timestamp 2001-12-14', '!!js/function "x"', '<<: *a', '|', '>-', '[[[[[', '{a: [}', '"\\e[31m"', '@get_stock.version'),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -2_000_000, max: 2_000_000 }).map(String),
);

type Edit = (lines: string[]) => void;
const at = (lines: string[], i: number) => {
  if (lines.length === 0) lines.push(''); // an earlier edit cut everything
  return Math.abs(i) % lines.length;
};
const edit: fc.Arbitrary<Edit> = fc.oneof(
  // a value replaced
  fc.tuple(fc.nat(), hostileScalar).map(([i, value]): Edit => (lines) => {
    const n = at(lines, i);
    lines[n] = /:\s/.test(lines[n]!) ? lines[n]!.replace(/:\s.*$/, `: ${value}`) : `${lines[n]!.replace(/\S.*$/, '')}- ${value}`;
  }),
  // a line lost, doubled, or shifted
  fc.nat().map((i): Edit => (lines) => void lines.splice(at(lines, i), 1)),
  fc.nat().map((i): Edit => (lines) => void lines.splice(at(lines, i), 0, lines[at(lines, i)]!)),
  fc.tuple(fc.nat(), fc.integer({ min: -4, max: 4 })).map(([i, by]): Edit => (lines) => {
    const n = at(lines, i);
    lines[n] = by > 0 ? ' '.repeat(by) + lines[n]! : lines[n]!.slice(-by);
  }),
  // text where it does not belong
  fc.tuple(fc.nat(), fc.string({ maxLength: 20, unit: 'binary' })).map(([i, text]): Edit => (lines) => void lines.splice(at(lines, i), 0, text)),
  // aliases, deep nesting, a second document
  fc.nat({ max: 300 }).map((n): Edit => (lines) => void lines.push(`tags: [&t a, ${Array.from({ length: n }, () => '*t').join(', ')}]`)),
  fc.nat({ max: 3000 }).map((n): Edit => (lines) => void lines.push(`extra: ${'['.repeat(n)}${']'.repeat(n)}`)),
  fc.constant<Edit>((lines) => void lines.push('---', 'id: second')),
  // cut short
  fc.nat().map((i): Edit => (lines) => void lines.splice(at(lines, i))),
);

const malformed = fc.oneof(
  { weight: 9, arbitrary: fc.tuple(fc.constantFrom(...SEEDS), fc.array(edit, { minLength: 1, maxLength: 4 })).map(([text, edits]) => {
    const lines = text.split('\n');
    for (const apply of edits) apply(lines);
    return Buffer.from(lines.join('\n'));
  }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
);

// ── option lists ────────────────────────────────────────────────────────────────────────────────────
const aFile = join(sandbox, 'a-file');
writeFileSync(aFile, 'not a folder');
mkdirSync(join(sandbox, 'empty'));
const value = (...pool: string[]) => fc.oneof(fc.constantFrom(...pool), fc.string({ maxLength: 8 }));
const option = fc.oneof(
  value('42', '-7', '0', '1e3', '0x10', '9007199254740993', '', 'x').map((v) => ['--seed', v]),
  value('memory', 'file', 'disk', '').map((v) => ['--storage', v]),
  value('reference', `mutant:${MUTANTS[0]!.name}`, 'mutant:nope', 'nowhere.ts', '', sandbox, aFile, 'test/cli/fixtures/ThrowsInConstructor.ts', 'test/cli/fixtures/PrintsEverywhere.ts').map((v) => ['--runner', v]),
  fc.nat().map((n) => ['--keep-db', n % 3 === 0 ? aFile : n % 3 === 1 ? '/proc/self/x' : join(sandbox, `kept-${n}`)]),
  fc.constantFrom(['--quiet'], ['-q'], ['--no-color'], ['--json'], ['--bogus'], ['-z'], ['--seed'], ['--json=yes'], ['--']),
  fc.constantFrom(['happy_path'], ['lost_reply'], ['no_such_id'], [''], [join(sandbox, 'empty')], [aFile], ['/dev/zero'], ['../../etc/passwd'], ['breaker_exact_threshold']),
);
const optionList = fc.tuple(fc.constantFrom('run', 'list'), fc.array(option, { maxLength: 5 })).map(([command, options]) => [command, ...options.flat()]);

describe('the CLI, fuzzed', () => {
  it('ends every malformed scenario in a normal run or exit 2 with a message, never a stack trace', async () => {
    await fc.assert(
      fc.asyncProperty(malformed, async (bytes) => {
        const file = join(sandbox, `fuzz-${(files += 1)}.yaml`);
        writeFileSync(file, bytes);
        expectContract(await cli(['run', file, '--json']), true);
      }),
      { seed: SEED, numRuns: 120 * RUNS },
    );
  }, 120_000);

  it('ends every option list in a normal run or exit 2 with a message, never a stack trace', async () => {
    await fc.assert(
      fc.asyncProperty(optionList, async (argv) => {
        expectContract(await cli(argv), argv.includes('--json'));
      }),
      { seed: SEED, numRuns: 60 * RUNS },
    );
  }, 120_000);

  it('keeps the same contract in Chinese: every option list ends in a normal run or exit 2 with a message', async () => {
    await fc.assert(
      fc.asyncProperty(optionList, async (argv) => {
        const out = await cli([...argv, '--lang', 'zh']);
        expectContract(out, argv.includes('--json'));
        expect(out.stderr).not.toContain('内部错误');
      }),
      { seed: SEED, numRuns: 60 * RUNS },
    );
  }, 120_000);
});
