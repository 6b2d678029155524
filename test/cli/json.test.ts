/**
 * `--json` is for scripts: the same document in every language once the words are taken out. Every violation
 * carries its message as data — a code and its parameters — beside the message in the language of the
 * command, and the words are exactly what the code and the parameters say in that language.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { word, type Lang } from '../../src/render/words/index.js';
import type { Message } from '../../src/core/message.js';
import { tempFolder } from '../tempFolder.js';
import { cli } from '../support.js';

interface Worded {
  message: string;
  code: string;
  params: Message['params'];
}

/** The document without its words: every `message` that has a code beside it taken out. */
function withoutWords(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutWords);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).filter(([key]) => !(key === 'message' && 'code' in value));
  return Object.fromEntries(entries.map(([key, v]) => [key, withoutWords(v)]));
}

/** Every object of the document that has a message beside a code. */
function wordedIn(value: unknown): Worded[] {
  if (Array.isArray(value)) return value.flatMap(wordedIn);
  if (value === null || typeof value !== 'object') return [];
  const here = 'message' in value && 'code' in value ? [value as Worded] : [];
  return [...here, ...Object.values(value).flatMap(wordedIn)];
}

async function json(argv: string[], lang: Lang): Promise<unknown> {
  const out = await cli([...argv, '--json', '--lang', lang]);
  expect(out.stderr).toBe('');
  return JSON.parse(out.stdout) as unknown;
}

function expectSameButWords(en: unknown, zh: unknown): void {
  expect(withoutWords(zh)).toEqual(withoutWords(en));
  const [enWorded, zhWorded] = [wordedIn(en), wordedIn(zh)];
  expect(enWorded.length).toBeGreaterThan(0);
  for (const [lang, worded] of [['en', enWorded], ['zh', zhWorded]] as const) {
    for (const one of worded) expect(word(lang, { code: one.code, params: one.params }), one.code).toBe(one.message);
  }
  expect(zhWorded.map((one) => one.message)).not.toEqual(enWorded.map((one) => one.message));
}

describe('--json in either language', () => {
  it('run: every violation with its code and parameters, worded from them; the same document but for the words', async () => {
    const argv = ['run', 'lost_reply', 'crash_after_commit', 'stale_version', '--runner', 'mutant:new_key_per_attempt'];
    const [en, zh] = [await json(argv, 'en'), await json(argv, 'zh')];
    expectSameButWords(en, zh);
    const violation = (en as { scenarios: Array<{ violations: Worded[] }> }).scenarios[0]!.violations.find((v) => v.code === 'check.inv3.keyChanged')!;
    expect(violation.params).toMatchObject({ name: 'reserve', call: 5, firstCall: 4 });
  });

  it("run: what a runner threw is data too — faultlab's own refusal given in English under `actual`, in words under `message`", async () => {
    const argv = ['run', 'happy_path', '--runner', 'test/fixtures/learners/RandomKey.ts'];
    const [en, zh] = [await json(argv, 'en'), await json(argv, 'zh')];
    expectSameButWords(en, zh);
    const thrown = (zh as { scenarios: Array<{ violations: Array<Worded & { actual: unknown }> }> }).scenarios[0]!.violations.find((v) => v.code === 'check.runnerError.message')!;
    expect(thrown.actual).toMatch(/^DeterminismError: step\(\) called Math\.random\(\): a runner must be deterministic/);
    expect(thrown.message).toMatch(/^Runner 在第 4 步抛出了 DeterminismError/);
  });

  it('explore: each violation found, with its code and parameters', async () => {
    const out = tempFolder('json-explore');
    const argv = ['explore', 'lost_reply', '--runner', 'mutant:new_key_per_attempt', '--workers', '1', '--out', out];
    const [en, zh] = [await json(argv, 'en'), await json(argv, 'zh')];
    expectSameButWords(en, zh);
    expect((en as { violations: Worded[] }).violations.map((v) => v.code)).toContain('check.inv3.keyChanged');
  });

  it("grade: results.json keeps Exercism's shape (no field of its own), and differs between languages only in its words", async () => {
    const dir = tempFolder('json-grade');
    const results = async (lang: Lang) => {
      const file = join(dir, `${lang}.json`);
      await cli(['grade', 'test/fixtures/learners/NewKeyPerAttempt.ts', '--scenarios', 'lost_reply', '--no-explore', '--json', file, '--lang', lang]);
      return JSON.parse(readFileSync(file, 'utf8')) as { tests: Array<Record<string, unknown>> };
    };
    const [en, zh] = [await results('en'), await results('zh')];
    // A test's message and the comment under its replay command are words; the command keeps the language (--lang zh).
    const data = (doc: { tests: Array<Record<string, unknown>> }) => ({ ...doc, tests: doc.tests.map(({ message: _m, test_code: code, ...rest }) => ({ ...rest, command: String(code).split('\n')[0]!.replace(' --lang zh', '') })) });
    expect(data(zh)).toEqual(data(en));
    expect(zh.tests[0]!.message).not.toBe(en.tests[0]!.message);
  });
});
