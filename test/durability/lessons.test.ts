import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { renderPillarRun, runPillarScenario, type PillarScenario } from '../../src/labs/index.js';

/**
 * The pillar lessons stay true. Every command a lesson shows (```sh, one per block) is a
 * `npx faultlab run scenarios/pillars/<id>.yaml [--seed N]`; it is run here through the engine the CLI
 * uses — runPillarScenario, then renderPillarRun with colour off, exit 0 when every check held and 1
 * otherwise — and every claim under it must hold:
 *   <!-- expect exit: 0 -->   <!-- expect output: "…" -->   <!-- expect no output: "…" -->
 * A block preceded by `<!-- excerpt of: <command> -->` or `<!-- excerpt of file: <path> -->` quotes that
 * output or file: each of its non-blank lines (trimmed; `…` skipped) must appear there, in order.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LESSONS = join(ROOT, 'lessons', 'pillars');
const lessonFiles = readdirSync(LESSONS).filter((f) => f.endsWith('.md')).sort();

type Claim = { kind: 'exit'; code: number } | { kind: 'output' | 'no-output'; text: string };
interface Command { command: string; line: number; claims: Claim[] }
interface Excerpt { source: string; file: boolean; lines: string[]; line: number }
interface Lesson { commands: Command[]; excerpts: Excerpt[]; headings: { level: number; text: string; line: number }[]; links: string[]; fences: string[]; problems: string[] }

function read(text: string): Lesson {
  const lesson: Lesson = { commands: [], excerpts: [], headings: [], links: [], fences: [], problems: [] };
  const lines = text.split('\n');
  let claimsFor: Command | undefined;
  let excerpt: { source: string; file: boolean; line: number } | undefined;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const open = /^```(\w*)\s*$/.exec(line);
    if (open) {
      const lang = open[1] ?? '';
      lesson.fences.push(lang);
      const body: string[] = [];
      const start = i + 1;
      for (i += 1; i < lines.length && !/^```\s*$/.test(lines[i] ?? ''); i += 1) body.push(lines[i] ?? '');
      claimsFor = undefined;
      if (excerpt) {
        lesson.excerpts.push({ ...excerpt, lines: body.map((l) => l.trim()).filter((l) => l !== '' && l !== '…') });
        excerpt = undefined;
      } else if (lang === 'sh') {
        if (body.length !== 1) lesson.problems.push(`line ${start}: one command per sh block`);
        claimsFor = { command: (body[0] ?? '').trim(), line: start + 1, claims: [] };
        lesson.commands.push(claimsFor);
      } else if (['bash', 'shell', 'console'].includes(lang)) lesson.problems.push(`line ${start}: use sh for commands (${lang} is never run)`);
      continue;
    }
    const claim = /^<!--\s*expect (exit|output|no output):\s*(.*?)\s*-->$/.exec(line.trim());
    if (claim) {
      if (!claimsFor) lesson.problems.push(`line ${i + 1}: a claim must follow its sh block at once`);
      else if (claim[1] === 'exit') claimsFor.claims.push({ kind: 'exit', code: Number(claim[2]) });
      else {
        const quoted = /^"(.*)"$/.exec(claim[2] ?? '');
        if (!quoted) lesson.problems.push(`line ${i + 1}: an output claim is a "quoted" text`);
        else claimsFor.claims.push({ kind: claim[1] === 'output' ? 'output' : 'no-output', text: quoted[1] ?? '' });
      }
      continue;
    }
    claimsFor = undefined;
    const ex = /^<!--\s*excerpt of( file)?:\s*(.+?)\s*-->$/.exec(line.trim());
    if (ex) {
      excerpt = { source: ex[2] ?? '', file: Boolean(ex[1]), line: i + 1 };
      continue;
    }
    if (excerpt) {
      lesson.problems.push(`line ${excerpt.line}: an excerpt comment must be followed at once by its fenced block`);
      excerpt = undefined;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*$/.exec(line);
    if (heading) lesson.headings.push({ level: (heading[1] ?? '').length, text: heading[2] ?? '', line: i + 1 });
    for (const m of line.matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)) if (!/^[a-z]+:/.test(m[1] ?? '')) lesson.links.push(m[1] ?? '');
  }
  return lesson;
}

const COMMAND = /^npx faultlab run (scenarios\/pillars\/[a-z0-9_]+\.yaml)(?: --seed (\d+))?$/;
const DEFAULT_SEED = 42;

/** What `npx faultlab run <file> [--seed N]` prints for a pillar scenario, after the CLI's header line. */
function runCommand(command: string): { exit: number; output: string } {
  const m = COMMAND.exec(command);
  if (!m) throw new Error(`not a pillar run command: ${command}`);
  const scenario = parse(readFileSync(join(ROOT, m[1] ?? ''), 'utf8')) as PillarScenario;
  const run = runPillarScenario(scenario, { seed: m[2] === undefined ? DEFAULT_SEED : Number(m[2]) });
  return { exit: run.passed ? 0 : 1, output: renderPillarRun(run, { color: false }) };
}

function missingInOrder(wanted: string[], haystack: string): string[] {
  const lines = haystack.split('\n').map((l) => l.trim());
  let at = 0;
  const missing: string[] = [];
  for (const w of wanted) {
    const found = lines.findIndex((l, i) => i >= at && l.includes(w));
    if (found === -1) missing.push(w);
    else at = found + 1;
  }
  return missing;
}

it('finds a lesson per pillar and one for the layer', () => {
  expect(lessonFiles).toHaveLength(6);
});

describe.each(lessonFiles)('lessons/pillars/%s', (name) => {
  const text = readFileSync(join(LESSONS, name), 'utf8');
  const lesson = read(text);

  it('follows the convention (claims under sh blocks, excerpts right above their block)', () => {
    expect(lesson.problems).toEqual([]);
  });

  it('ends with "## Try it", holding at least one command, each with an exit claim', () => {
    const h2 = lesson.headings.filter((h) => h.level <= 2);
    expect(h2.at(-1)?.text).toBe('Try it');
    const tryIt = h2.at(-1)?.line ?? Infinity;
    expect(lesson.commands.filter((c) => c.line > tryIt).length).toBeGreaterThan(0);
    for (const c of lesson.commands) expect(c.claims.some((x) => x.kind === 'exit'), `${c.command} has no exit claim`).toBe(true);
  });

  it('shows only `npx faultlab run scenarios/pillars/<id>.yaml [--seed N]` commands, for scenarios that exist', () => {
    for (const c of lesson.commands) {
      const m = COMMAND.exec(c.command);
      expect(m, `line ${c.line}: ${c.command}`).not.toBeNull();
      expect(existsSync(join(ROOT, m?.[1] ?? '')), `line ${c.line}: ${m?.[1]} does not exist`).toBe(true);
    }
  });

  it('has a defaults table, a mermaid diagram, and a Don’t / Do / Why section', () => {
    expect(text).toMatch(/^\|.*\|\s*$/m);
    expect(lesson.fences).toContain('mermaid');
    expect(lesson.headings.some((h) => /don.t.*do.*why/i.test(h.text))).toBe(true);
  });

  it('links only to files that exist', () => {
    for (const link of lesson.links) expect(existsSync(resolve(LESSONS, link)), `${name} links to ${link}`).toBe(true);
  });

  it.each(lesson.commands.map((c) => [`line ${c.line}: ${c.command}`, c] as const))('%s — every claim holds', (_t, c) => {
    const { exit, output } = runCommand(c.command);
    const failed: string[] = [];
    for (const claim of c.claims) {
      if (claim.kind === 'exit' && claim.code !== exit) failed.push(`exit ${exit}, the lesson says ${claim.code}`);
      if (claim.kind === 'output' && !output.includes(claim.text)) failed.push(`missing: "${claim.text}"`);
      if (claim.kind === 'no-output' && output.includes(claim.text)) failed.push(`present, but should not be: "${claim.text}"`);
    }
    expect(failed, output).toEqual([]);
  });

  it.each(lesson.excerpts.map((e) => [`line ${e.line}: excerpt of ${e.source}`, e] as const))('%s — still quotes it', (_t, e) => {
    const source = e.file ? readFileSync(join(ROOT, e.source), 'utf8') : runCommand(e.source).output;
    expect(missingInOrder(e.lines, source)).toEqual([]);
  });
});
