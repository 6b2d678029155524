/**
 * The pillar lessons (lessons/pillars/) keep the shape of Polly's strategy pages (STYLE.md 9): a defaults
 * table, a diagram, a "Don't / Do / Why" section, and they end with "Try it". Their commands and excerpts
 * are run and checked by lessons.test.ts through the CLI, like every lesson's, whatever they run (a lab
 * in scenarios/labs or a runner scenario with a durability block). Their Chinese versions
 * (lessons/zh/pillars/) keep the same shape under Chinese headings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './lessonCommand.js';
import { parseLesson } from './lessonDoc.js';

/** Each language's folder and the headings the shape is read from. */
const SHAPES = [
  { dir: 'lessons/pillars', tryIt: 'Try it', dontDoWhy: /don.t.*do.*why/i },
  { dir: 'lessons/zh/pillars', tryIt: '动手试试', dontDoWhy: /不要.*要.*为什么/ },
];

describe.each(SHAPES)('$dir', ({ dir, tryIt, dontDoWhy }) => {
  const lessonFiles = readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.md')).sort();

  it('finds a lesson per pillar and one for the layer', () => {
    expect(lessonFiles).toHaveLength(6);
  });

  describe.each(lessonFiles)(`${dir}/%s`, (name) => {
    const text = readFileSync(join(ROOT, dir, name), 'utf8');
    const lesson = parseLesson(text);

    it(`ends with "## ${tryIt}"`, () => {
      expect(lesson.headings.filter((h) => h.level <= 2).at(-1)?.text).toBe(tryIt);
    });

    it('has a defaults table, a mermaid diagram, and a Don’t / Do / Why section', () => {
      expect(text).toMatch(/^\|.*\|\s*$/m);
      expect(text).toMatch(/^```mermaid\s*$/m);
      expect(lesson.headings.some((h) => dontDoWhy.test(h.text))).toBe(true);
    });
  });
});
