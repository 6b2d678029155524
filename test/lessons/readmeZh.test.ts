/**
 * The Chinese README (README.zh-CN.md) is where a Chinese reader starts: README.md links it at the top, it
 * lists every Chinese lesson, and every link in it leads to a file that exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './lessonCommand.js';
import { parseLesson } from './lessonDoc.js';

const README_ZH = 'README.zh-CN.md';
const zh = parseLesson(readFileSync(join(ROOT, README_ZH), 'utf8'));
const localTargets = zh.links.map((link) => link.target).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));

it('is linked from the top of README.md', () => {
  const top = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').slice(0, 5).join('\n');
  expect(top).toContain(`](${README_ZH})`);
});

it('links only to files that exist', () => {
  const missing = localTargets.filter((target) => !existsSync(resolve(ROOT, decodeURI(target.split('#')[0]!))));
  expect(missing).toEqual([]);
});

it('lists every Chinese lesson, and the glossary', () => {
  const lessons = ['lessons/zh', 'lessons/zh/pillars'].flatMap((dir) =>
    readdirSync(join(ROOT, dir)).filter((name) => name.endsWith('.md')).map((name) => `${dir}/${name}`),
  );
  expect(lessons).toHaveLength(19);
  expect(lessons.filter((lesson) => !localTargets.includes(lesson))).toEqual([]);
  expect(localTargets).toContain('GLOSSARY.md');
});
