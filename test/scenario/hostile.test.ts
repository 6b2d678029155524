/**
 * A scenario file can be wrong in ways a schema never sees: aliases that name nothing or expand without
 * end, nesting thousands deep, numbers that are not numbers, a file that is not a file. Each is refused
 * with one message that names the file, the place and the limit — exit 2, no stack trace, nothing run —
 * and none of them makes faultlab hang.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import { loadAll } from '../../src/scenario/load.js';
import { MAX_ALIASES, MAX_DEPTH, MAX_FILE_BYTES, MAX_SCRIPT_STEPS } from '../../src/scenario/limits.js';
import { ScenarioError } from '../../src/scenario/ScenarioError.js';
import { semanticIssues, type ScenarioDocument } from '../../src/scenario/toScenario.js';
import { cli, problemLines } from '../support.js';
import { said } from '../../src/render/words/index.js';

const dir = mkdtempSync(join(tmpdir(), 'faultlab-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HAPPY = readFileSync(join(SCENARIOS_DIR, 'happy_path.yaml'), 'utf8');
const STACK = /\n\s+at .+[:(]\d+/;

const file = (name: string, text: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** The problems loading `paths` reports, each as its message line, paths shown relative to the test folder. */
function problems(...paths: string[]): string[] {
  try {
    loadAll(paths, { cwd: dir });
  } catch (error) {
    if (error instanceof ScenarioError) return problemLines(error);
    throw error;
  }
  return [];
}

/** `line:col` (1-based) of the first `needle` (after `after`) in `text`. */
function at(text: string, needle: string, after = ''): string {
  const offset = text.indexOf(needle, after ? text.indexOf(after) : 0);
  if (offset < 0) throw new Error(`${needle} not in text`);
  const lines = text.slice(0, offset).split('\n');
  return `${lines.length}:${lines.at(-1)!.length + 1}`;
}

/** The CLI on `path`: exit 2, the message on stderr, no stack trace, nothing on stdout. */
async function refused(path: string, ...more: string[]) {
  const out = await cli(['run', path, '--json', ...more]);
  expect(out.code).toBe(2);
  expect(out.stdout).toBe('');
  expect(out.stderr).not.toMatch(STACK);
  expect(out.stderr).toContain('nothing was run');
  return out.stderr;
}

describe('YAML aliases', () => {
  it('refuses an alias that names no anchor, at the alias, instead of a ReferenceError stack', async () => {
    const text = HAPPY.replace('"@search_docs.0"', '*nope');
    expect(problems(file('unresolved.yaml', text))).toEqual([`unresolved.yaml:${at(text, '*nope')}: YAML alias *nope names no anchor &nope set before it`]);
    expect(await refused(join(dir, 'unresolved.yaml'))).toContain('YAML alias *nope names no anchor');
  });

  it(`refuses more than ${MAX_ALIASES} aliases, naming the limit, at the first alias past it`, async () => {
    const aliases = Array.from({ length: MAX_ALIASES + 5 }, () => '*t').join(', ');
    const text = HAPPY.replace('tags: [chapter]', `tags: [&t chapter, ${aliases}]`);
    const offset = text.indexOf('*t') + (MAX_ALIASES) * '*t, '.length;
    const line = text.slice(0, offset).split('\n');
    expect(problems(file('aliases.yaml', text))).toEqual([`aliases.yaml:${line.length}:${line.at(-1)!.length + 1}: more than ${MAX_ALIASES} YAML aliases (*name) in one file (the limit)`]);
    await refused(join(dir, 'aliases.yaml'));
  });

  it('refuses nested aliases in policy.script args that would expand a 2 KB file to billions of values', async () => {
    let laughs = '        l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i <= 9; i += 1) laughs += `        l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]\n`;
    const text = HAPPY.replace('    - search_docs: { query: camera }\n', `    - search_docs:\n        query: camera\n${laughs}`);
    expect(text.length).toBeLessThan(3000);
    const [first] = problems(file('laughs.yaml', text));
    expect(first).toMatch(new RegExp(`^laughs\\.yaml:${at(text, '*l0')}: YAML aliases expand past the limit`));
    await refused(join(dir, 'laughs.yaml'));
  });
});

describe('nesting', () => {
  it(`refuses maps and lists nested deeper than ${MAX_DEPTH} levels (2,000 here) where the limit is passed`, async () => {
    const text = HAPPY.replace('{ query: camera }', `{ query: ${'['.repeat(2000)}${']'.repeat(2000)} }`);
    const [first] = problems(file('deep.yaml', text));
    expect(first).toMatch(/^deep\.yaml:23:\d+: nested deeper than 32 levels of maps and lists \(the limit\)$/);
    await refused(join(dir, 'deep.yaml'));
  });
});

describe('numbers', () => {
  it.each([
    ['available: .inf', 'available: 3', 'inventory.items.camera.available', 'an integer from 0 to 1,000,000', '.inf'],
    ['available: .nan', 'available: 3', 'inventory.items.camera.available', 'an integer from 0 to 1,000,000', '.nan'],
    ['max_calls: 1e400', 'max_calls: 8', 'task.max_calls', 'an integer from 0 to 1,000', '.inf'],
    ['order: 1e400', 'order: 1', 'order', 'an integer from 1 to 1,000', '.inf'],
    ['max_retries: 1000000', 'max_retries: 2', 'task.max_retries', 'an integer from 0 to 100', '1000000'],
    ['available: 2.5', 'available: 3', 'inventory.items.camera.available', 'an integer from 0 to 1,000,000', '2.5'],
  ])('refuses %s with the range the field takes, once', async (written, original, field, range, got) => {
    const text = HAPPY.replace(original, written);
    const name = `number-${field.replaceAll('.', '-')}-${got.replace('.', '')}.yaml`;
    expect(problems(file(name, text))).toEqual([`${name}:${at(text, written.split(': ')[1]!, written.split(':')[0])}: ${field}: must be ${range} (got ${got})`]);
    await refused(join(dir, name));
  });

  it('refuses a non-finite number where the schema sets no range (a script argument)', () => {
    const text = HAPPY.replace('qty: 1,', 'qty: .inf,');
    expect(problems(file('arg.yaml', text))).toEqual([`arg.yaml:${at(text, '.inf')}: policy.script[3].reserve.qty: must be a finite number (got .inf)`]);
  });

  it('bounds a lab too: a backoff run of a billion attempts is refused at its field, not run until memory runs out', async () => {
    const text = readFileSync(join(SCENARIOS_DIR, 'labs', 'backoff_schedule.yaml'), 'utf8').replace('max_attempts: 8, jitter: none }', 'max_attempts: 1000000000, jitter: none }');
    const file = join(dir, 'billion_attempts.yaml');
    writeFileSync(file, text);
    expect(await refused(file)).toMatch(/billion_attempts\.yaml:\d+:\d+: runs\[2\]\.max_attempts: must be an integer from 1 to 100 \(got 1000000000\)/);
  });

  it('states every range in the lab schema too', () => {
    const schema = readFileSync(join(SCENARIOS_DIR, 'labs', 'lab.schema.json'), 'utf8');
    const integers = [...schema.matchAll(/"type": "integer"[^}]*/g)].map((m) => m[0]);
    expect(integers.length).toBeGreaterThanOrEqual(20);
    for (const field of integers) expect(field).toMatch(/"maximum": \d+/);
  });

  it('states every range in the schema, so an editor shows it too', () => {
    const schema = readFileSync(join(SCENARIOS_DIR, 'scenario.schema.json'), 'utf8');
    const integers = [...schema.matchAll(/"type": "integer"[^}]*/g)].map((m) => m[0]);
    expect(integers.length).toBeGreaterThanOrEqual(12);
    for (const field of integers) expect(field).toMatch(/"maximum": \d+/);
  });
});

describe('what is read', () => {
  it('refuses an empty folder: a mistyped path must not pass as "nothing failed"', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const stderr = await refused(empty);
    expect(stderr).toContain(`${empty}: no scenario found in ${empty}`);
  });

  it('refuses a FIFO and /dev/zero by what they are, without opening them (a read would never end)', async () => {
    const fifo = join(dir, 'pipe.yaml');
    execFileSync('mkfifo', [fifo]);
    expect(problems(fifo)).toEqual(['pipe.yaml: cannot read: a named pipe (FIFO), not a scenario file']);
    expect(await refused('/dev/zero')).toContain('/dev/zero: cannot read: a character device, not a scenario file');
  });

  it(`refuses a file over ${MAX_FILE_BYTES / 1024} KiB before parsing it (a 25,000-step script)`, async () => {
    const steps = '    - read_doc: {}\n'.repeat(25_000);
    const big = file('big.yaml', HAPPY.replace('    - search_docs: { query: camera }\n', steps));
    expect(problems(big)).toEqual([`big.yaml: too large: ${readFileSync(big).length.toLocaleString('en-US')} bytes (a scenario file is at most 256 KiB)`]);
    await refused(big);
  });

  it(`refuses a script of more than ${MAX_SCRIPT_STEPS} steps, naming the limit`, () => {
    const text = HAPPY.replace('    - search_docs: { query: camera }\n', '    - read_doc: {}\n'.repeat(MAX_SCRIPT_STEPS + 1));
    expect(problems(file('long.yaml', text))).toEqual([`long.yaml:${at(text, '- read_doc')}: policy.script: at most 1,000 entries (the limit; got 1,004)`]);
  });

  it('checks references in one pass: 25,000 steps are checked at once (a quadratic check took minutes)', () => {
    const script: Array<Record<string, unknown>> = Array.from({ length: 25_000 }, () => ({ read_doc: { doc_id: '@search_docs.0' } }));
    script.unshift({ search_docs: { query: 'camera' } });
    script.push({ reserve: { item: 'camera', qty: 1, expected_version: '@get_stok.version' } });
    const doc = { policy: { script }, expect: {}, inventory: { items: { camera: { available: 3, version: 0 } } } } as unknown as ScenarioDocument;
    expect(semanticIssues(doc).map((issue) => ({ ...issue, message: said('en', issue.message) }))).toEqual([
      { path: ['policy', 'script', 25_001, 'reserve', 'expected_version'], message: '@get_stok.version refers to get_stok, which no earlier step calls (earlier: search_docs, read_doc)' },
    ]);
  });

  it('says a multi-document file holds more than one scenario, where the second starts', () => {
    const text = `${HAPPY}---\nid: second\n`;
    expect(problems(file('multi.yaml', text))).toEqual([
      `multi.yaml:${at(text, '---')}: a scenario file holds one YAML document, and a second one starts here (remove this \`---\` and what follows, or split the file)`,
    ]);
  });

  it('refuses a binary file by the offset of its first bad byte, never echoing its bytes', async () => {
    const elf = file('binary.yaml', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0xff, 0xfe]));
    const latin1 = file('latin1.yaml', Buffer.from('id: caf\xe9\n', 'latin1'));
    expect(problems(elf, latin1)).toEqual([
      'binary.yaml: not a text file: a NUL byte at offset 7 (a scenario is YAML text)',
      'latin1.yaml: not a text file: byte 7 is not UTF-8 (a scenario is YAML text in UTF-8)',
    ]);
    const stderr = await refused(elf);
    expect(stderr).not.toContain('ELF');
  });

  it('shows control characters from a file as codes, never sends them to the terminal', () => {
    const text = HAPPY.replace('id: happy_path', 'id: "\\e[31mred\\a"');
    const [first] = problems(file('escape.yaml', text));
    expect(first).toContain('(got "\\u001b[31mred\\u0007")');
    expect(first).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });

  const unreadable = (() => {
    const folder = join(dir, 'locked');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.yaml'), HAPPY);
    chmodSync(folder, 0);
    try {
      readdirSync(folder); // root reads it anyway: try a folder the kernel refuses even to root
    } catch {
      return folder;
    }
    for (const candidate of ['/proc/1/map_files']) {
      try {
        readdirSync(candidate);
      } catch {
        return candidate;
      }
    }
    return null;
  })();

  it.runIf(unreadable !== null)('refuses a folder it cannot read, with the reason', async () => {
    expect(problems(unreadable!)).toEqual([`${unreadable}: cannot read the folder: EACCES`]);
    await refused(unreadable!);
  });
});
