/**
 * The pillar lessons (lessons/pillars/) keep the shape of Polly's strategy pages (STYLE.md 9): a defaults
 * table, a diagram, a "Don't / Do / Why" section, and they end with "Try it". Their commands and excerpts
 * are run and checked by lessons.test.ts through the CLI, like every lesson's, whatever they run (a lab
 * in scenarios/labs or a runner scenario with a durability block).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './lessonCommand.js';
import { parseLesson } from './lessonDoc.js';

const DIR = join(ROOT, 'lessons', 'pillars');
const lessonFiles = readdirSync(DIR).filter((f) => f.endsWith('.md')).sort();

it('finds a lesson per pillar and one for the layer', () => {
  expect(lessonFiles).toHaveLength(6);
});

describe.each(lessonFiles)('lessons/pillars/%s', (name) => {
  const text = readFileSync(join(DIR, name), 'utf8');
  const lesson = parseLesson(text);

  it('ends with "## Try it"', () => {
    expect(lesson.headings.filter((h) => h.level <= 2).at(-1)?.text).toBe('Try it');
  });

  it('has a defaults table, a mermaid diagram, and a Don’t / Do / Why section', () => {
    expect(text).toMatch(/^\|.*\|\s*$/m);
    expect(text).toMatch(/^```mermaid\s*$/m);
    expect(lesson.headings.some((h) => /don.t.*do.*why/i.test(h.text))).toBe(true);
  });
});
