/**
 * Two languages, one catalogue each, and nothing said in one that the other cannot say: every key of the
 * English catalogue is in the Chinese one with the same placeholders, and no other key; every code a layer
 * below the renderers can say has its text in both; the language comes from --lang, else from the locale,
 * and is handed down (there is none to set); only human text changes with it.
 */
import { describe, expect, it } from 'vitest';
import { message } from '../../src/core/message.js';
import { AJV_WORDS } from '../../src/scenario/validateSchema.js';
import { catalogue, langFromLocale, LANGS, placeholders, PRODUCED_CODES, t, word } from '../../src/render/words/index.js';
import { cli } from '../support.js';

describe('the catalogues', () => {
  const en = catalogue('en');
  const zh = catalogue('zh');

  it('say every message in both languages, and no message in one only', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(en).length).toBeGreaterThan(0);
  });

  it('give every message the same placeholders in both languages', () => {
    const differ = Object.keys(en).filter((key) => placeholders(en[key as keyof typeof en]).join() !== placeholders(zh[key as keyof typeof zh]).join());
    expect(differ).toEqual([]);
  });

  it('leave no message empty, and no English sentence standing in for a Chinese one', () => {
    for (const lang of LANGS) for (const [key, text] of Object.entries(catalogue(lang))) expect(text.trim(), `${lang} ${key}`).not.toBe('');
    // A Chinese message is Chinese: it has a CJK character, unless it is only symbols, codes and placeholders.
    const english = Object.entries(zh).filter(([key, text]) => /[a-z]{4,} [a-z]{4,} [a-z]{4,}/.test(text.replace(/\{[^}]+\}|`[^`]*`/g, '')) && !/[\u4e00-\u9fff]/.test(text)).map(([key]) => key);
    expect(english).toEqual([]);
  });

  it('fill placeholders, and refuse a message asked for without one of its values', () => {
    expect(t('en', 'summary.tally', { passed: 17, failed: 0 })).toBe('17 passed, 0 failed');
    expect(t('zh', 'summary.tally', { passed: 17, failed: 0 })).toBe('17 个通过，0 个失败');
    expect(() => t('en', 'summary.tally', { passed: 1 })).toThrow('message summary.tally (en) needs {failed}');
  });

  it('word a message the engine made, its parameters that are messages too, and refuse a code no catalogue has', () => {
    const said = message('check.figure.differs', { figure: 'calls', expected: '5', actual: '6', meaning: message('check.meaning.calls') });
    expect(word('en', said)).toBe('calls: expected 5, got 6 — every attempt is one call, retries included');
    expect(word('zh', said)).toMatch(/^calls：/);
    expect(() => word('en', message('check.no.such.code'))).toThrow('no message check.no.such.code (en)');
  });

  it('say every code of every layer below the renderers, in both languages', () => {
    const codes = Object.values(PRODUCED_CODES).flat();
    expect(codes.length).toBeGreaterThan(200);
    for (const lang of LANGS) expect(codes.filter((code) => !Object.hasOwn(catalogue(lang), code)), lang).toEqual([]);
  });

  it("word Ajv's messages in English exactly as Ajv says them, so a message of another Ajv version is never mistaken for one", () => {
    const sample = { limit: 2, i: 3, j: 1 };
    for (const [keyword, known] of Object.entries(AJV_WORDS)) {
      const params = known.params(sample);
      expect(t('en', known.code, params), keyword).toBe(known.ajv(params));
    }
  });
});

describe('the language', () => {
  it('comes from the locale: LC_ALL, then LC_MESSAGES, then LANG; zh* is Chinese, anything else English', () => {
    expect(langFromLocale({ LANG: 'zh_CN.UTF-8' })).toBe('zh');
    expect(langFromLocale({ LANG: 'zh_TW' })).toBe('zh');
    expect(langFromLocale({ LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' })).toBe('en');
    expect(langFromLocale({ LC_ALL: '', LC_MESSAGES: 'zh_CN', LANG: 'C' })).toBe('zh');
    expect(langFromLocale({ LANG: 'C.UTF-8' })).toBe('en');
    expect(langFromLocale({})).toBe('en');
  });

  it('is Chinese with --lang zh or a Chinese locale, English without, and the same figures either way', async () => {
    const zh = await cli(['run', 'lost_reply', '--quiet', '--lang', 'zh']);
    const locale = await cli(['run', 'lost_reply', '--quiet'], { env: { LANG: 'zh_CN.UTF-8' } });
    const en = await cli(['run', 'lost_reply', '--quiet']);
    expect(zh.stdout).toContain('1 个通过，0 个失败');
    expect(locale.stdout).toBe(zh.stdout);
    expect(en.stdout).toContain('1 passed, 0 failed');
    const figures = (text: string) => text.match(/succeeded +5 +1/)?.[0];
    expect(figures(zh.stdout)).toBe(figures(en.stdout));
  });

  it('keeps --json the same document in both languages but for its human text', async () => {
    const zh = JSON.parse((await cli(['run', 'lost_reply', '--json', '--lang=zh'])).stdout);
    const en = JSON.parse((await cli(['run', 'lost_reply', '--json'])).stdout);
    expect(zh.scenarios[0].calls).toBe(en.scenarios[0].calls);
    expect(Object.keys(zh.scenarios[0]).sort()).toEqual(Object.keys(en.scenarios[0]).sort());
  });

  it('refuses a language it does not have, and speaks English again after a Chinese command', async () => {
    const bad = await cli(['run', 'lost_reply', '--lang', 'fr']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--lang must be one of en, zh, got "fr"');
    await cli(['run', 'lost_reply', '--quiet', '--lang', 'zh']);
    expect((await cli(['run', 'lost_reply', '--quiet'])).stdout).toContain('1 passed, 0 failed');
  });
});
