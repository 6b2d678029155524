/**
 * The lessons stay true: every command a lesson shows is run, and every claim under it must hold against
 * the real output (colour off). Quoted traces and code marked as excerpts must still be found in the
 * output or file they quote, links between lessons must resolve, and every lesson ends with a "Try it"
 * section that has something to try. Covers whatever lessons/*.md and lessons/pillars/*.md exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failedClaims, missingInOrder, ROOT, runFaultlab, toArgv } from './lessonCommand.js';
import { parseLesson, type LessonDoc } from './lessonDoc.js';

const LESSONS_DIR = join(ROOT, 'lessons');
/** The chapter's lessons, then the pillars' (lessons/pillars/): every command of both runs through the CLI. */
const inFolder = (sub: string) =>
  readdirSync(join(LESSONS_DIR, sub))
    .filter((name) => name.endsWith('.md') && statSync(join(LESSONS_DIR, sub, name)).isFile())
    .sort()
    .map((name) => (sub === '' ? name : `${sub}/${name}`));
const lessonFiles = [...inFolder(''), ...inFolder('pillars')];

const docs = new Map<string, LessonDoc>(lessonFiles.map((name) => [name, parseLesson(readFileSync(join(LESSONS_DIR, name), 'utf8'))]));
const doc = (name: string): LessonDoc => docs.get(name)!;

/** The seven lessons this suite was written with; more may join (08, …) and are covered the same way. */
const CORE_LESSONS = [
  '01-intents-attempts-effects.md',
  '02-idempotency-keys.md',
  '03-fingerprint-and-version.md',
  '04-one-transaction.md',
  '05-losing-contact-after-commit.md',
  '06-which-errors-to-retry.md',
  '07-receipt-retention.md',
];

it('finds lessons 01 to 07 under lessons/', () => {
  expect(CORE_LESSONS.filter((name) => !lessonFiles.includes(name))).toEqual([]);
});

describe.each(lessonFiles)('%s', (name) => {
  const lesson = doc(name);
  const where = (line: number) => `lessons/${name}:${line}`;

  it('follows the lesson convention (claims under sh blocks, excerpts above their block)', () => {
    expect(lesson.problems.map((p) => `lessons/${name} ${p}`)).toEqual([]);
  });

  it('has a "## Try it" section with at least one command', () => {
    const tryIt = lesson.headings.find((h) => h.level === 2 && h.text === 'Try it');
    expect(tryIt, `lessons/${name} has no "## Try it" heading`).toBeDefined();
    const end = lesson.headings.find((h) => h.level <= 2 && h.line > tryIt!.line)?.line ?? Infinity;
    const inside = lesson.commands.filter((c) => c.line > tryIt!.line && c.line < end);
    expect(inside.length, `lessons/${name}: "## Try it" has no command`).toBeGreaterThan(0);
  });

  if (CORE_LESSONS.includes(name)) {
    it('ends with "## Try it"', () => {
      const last = lesson.headings.filter((h) => h.level <= 2).at(-1);
      expect(last?.text, `lessons/${name}: the last section should be "## Try it"`).toBe('Try it');
    });
  }

  it('shows only faultlab commands, each with an exit claim', () => {
    const problems: string[] = [];
    for (const block of lesson.commands) {
      const parsed = toArgv(block.command);
      if (!parsed.ok) problems.push(`${where(block.line)} \`${block.command}\`: ${parsed.reason}`);
      if (!block.claims.some((c) => c.kind === 'exit')) problems.push(`${where(block.line)} \`${block.command}\` has no <!-- expect exit: N --> claim`);
    }
    expect(problems).toEqual([]);
  });

  const runnable = lesson.commands.filter((block) => toArgv(block.command).ok);
  if (runnable.length > 0) {
    it.each(runnable.map((block) => [`line ${block.line}: ${block.command}`, block] as const))('%s', async (_title, block) => {
      const parsed = toArgv(block.command);
      if (!parsed.ok) throw new Error(parsed.reason);
      const outcome = await runFaultlab(parsed.argv);
      const failed = failedClaims(block.claims, outcome);
      const shown = outcome.output.length > 4000 ? `${outcome.output.slice(0, 4000)}\n… (${outcome.output.length} characters in all)` : outcome.output;
      expect(failed, `${where(block.line)} \`${block.command}\` (exit ${outcome.exit}) — its claims no longer hold:\n${failed.join('\n')}\n--- output ---\n${shown}`).toEqual([]);
    });
  }

  if (lesson.excerpts.length > 0) {
    it.each(lesson.excerpts.map((excerpt) => [`excerpt at line ${excerpt.line}`, excerpt] as const))('quotes the real thing: %s', async (_title, excerpt) => {
      let haystack: string;
      let from: string;
      if (excerpt.source.kind === 'file') {
        const file = resolve(ROOT, excerpt.source.path);
        expect(existsSync(file), `${where(excerpt.line)} quotes ${excerpt.source.path}, which does not exist`).toBe(true);
        haystack = readFileSync(file, 'utf8');
        from = excerpt.source.path;
      } else {
        const parsed = toArgv(excerpt.source.command);
        if (!parsed.ok) throw new Error(`${where(excerpt.line)} excerpt of \`${excerpt.source.command}\`: ${parsed.reason}`);
        haystack = (await runFaultlab(parsed.argv)).output;
        from = `the output of \`${excerpt.source.command}\``;
      }
      const missing = missingInOrder(excerpt.lines, haystack);
      expect(missing === null ? null : `${where(missing.line)}: ${JSON.stringify(missing.text)} is not in ${from} (or not in this order)`).toBeNull();
    });
  }

  it('links only to files (and headings) that exist', () => {
    const broken: string[] = [];
    for (const link of lesson.links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) continue; // https:, mailto:, …
      const [path, anchor] = link.target.split('#', 2) as [string, string | undefined];
      const file = path === '' ? join(LESSONS_DIR, name) : resolve(dirname(join(LESSONS_DIR, name)), decodeURI(path));
      if (!existsSync(file)) {
        broken.push(`${where(link.line)} links to ${link.target}: no such file ${relative(ROOT, file)}`);
        continue;
      }
      if (anchor !== undefined && anchor !== '' && file.endsWith('.md')) {
        const target = docs.has(relative(LESSONS_DIR, file)) ? doc(relative(LESSONS_DIR, file)) : parseLesson(readFileSync(file, 'utf8'));
        if (!target.headings.some((h) => h.slug === anchor)) {
          broken.push(`${where(link.line)} links to ${link.target}: no heading with the anchor #${anchor} (have: ${target.headings.map((h) => h.slug).join(', ')})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
