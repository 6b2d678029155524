/// <reference lib="dom" />
/**
 * The HTML timeline in a real browser: Debian's Chromium, headless, driven by playwright-core (its own browser
 * downloads cannot work offline; .ci/run installs the `chromium` package). The pages are written by the CLI
 * as a user would (`faultlab run lost_reply crash_after_commit --html DIR`, `faultlab grade FILE --html DIR`),
 * opened from file://, and stepped with the keys: the test reads what the page shows at each moment — the
 * ledger row appearing at the step the tool committed it, the INDEFINITE mark, the cut of the crash and the
 * recovery from the log, the first divergence of a failing learner — and that nothing was fetched.
 * UPDATE_SCREENSHOT=1 also refreshes docs/timeline.png, the picture the README shows.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = join(import.meta.dirname, '..', '..');
const INSTALL = "install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH";
// Without the browser this file is skipped, with one line saying what to install; under CI=true it is never
// skipped: there a missing browser fails in beforeAll (.ci/run installs it first).
const missing = !existsSync(CHROMIUM);
const skip = missing && process.env.CI !== 'true';
if (skip) process.stderr.write(`test/browser/timeline.test.ts skipped: no Chromium at ${CHROMIUM}; ${INSTALL}\n`);
let out = ''; // made in beforeAll: a skipped file leaves no folder behind
let context: BrowserContext;

/** Open a page from file://, failing on any script error or any request that is not the file itself. */
async function open(file: string): Promise<Page> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  page.on('request', (request) => request.url() !== pathToFileURL(file).href && problems.push(`fetched ${request.url()}`));
  await page.goto(pathToFileURL(file).href);
  (page as Page & { problems: string[] }).problems = problems;
  return page;
}

const problemsOf = (page: Page) => (page as Page & { problems: string[] }).problems;

/** What the page shows about the chosen moment. */
const current = (page: Page) =>
  page.evaluate(() => {
    const m = document.querySelector<HTMLElement>('.moment.current')!;
    return { id: m.id, type: m.dataset.type, when: m.dataset.when, text: m.innerText };
  });

/** The rows of the tool's ledger the panel shows now (its visible table). */
const ledgerShown = (page: Page) => page.locator('[data-db-state]:visible table.ledger tbody tr').allInnerTexts();

/** Press → until the chosen moment passes `test`; returns how many presses it took. */
async function stepUntil(page: Page, test: (m: Awaited<ReturnType<typeof current>>) => boolean, limit = 60): Promise<number> {
  for (let presses = 0; presses < limit; presses++) {
    if (test(await current(page))) return presses;
    await page.keyboard.press('ArrowRight');
  }
  throw new Error('never reached the moment');
}

describe.skipIf(skip)('the HTML timeline in Chromium', () => {
  beforeAll(async () => {
    if (missing) throw new Error(`no Chromium at ${CHROMIUM}: ${INSTALL}`); // only under CI=true: elsewhere the file is skipped
    out = mkdtempSync(join(tmpdir(), 'faultlab-browser-'));
    const run = await cli(['run', 'lost_reply', 'crash_after_commit', '--quiet', '--html', join(out, 'run')]);
    expect(run.code).toBe(0);
    const workers = await cli(['run', 'scenarios/workers/zombie_after_pause.yaml', '--quiet', '--html', join(out, 'workers')]);
    expect(workers.code).toBe(0);
    const grade = await cli(['grade', 'test/fixtures/learners/NewKeyPerAttempt.ts', '--no-color', '--html', join(out, 'grade')]);
    expect(grade.code).toBe(1);
    context = await chromium.launchPersistentContext(join(out, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1400, height: 900 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (out !== '') rmSync(out, { recursive: true, force: true });
  });

  describe('the timeline of lost_reply, stepped with the keys', () => {
    it('shows no ledger row until the tool commits at step 4, then the receipt, then the INDEFINITE reply and the truth', async () => {
      const page = await open(join(out, 'run', 'lost_reply.html'));
      expect(await current(page)).toMatchObject({ id: 'm0', type: 'saved' });
      expect(await ledgerShown(page)).toEqual(['no ledger row']);

      await stepUntil(page, (m) => m.type === 'db');
      const commit = await current(page);
      expect(commit.when).toBe('96ms · step 4 · db');
      expect(commit.text).toContain('db: stock camera 3→2 (v0→v1) · ledger +1 (res_3192e4) · committed');
      const [row] = await ledgerShown(page);
      expect(row).toMatch(/^2872d1b4…\s+camera\s+1\s+res_3192e4/);
      expect(row).toContain('new here'); // the row that changed is marked with words, not only a colour
      await expect(page.locator('[data-db-state]:visible table.items tbody tr').first().innerText()).resolves.toMatch(/camera\s+2\s+v1/);

      await page.keyboard.press('ArrowLeft'); // one back: the request on the wire, before the commit
      expect((await current(page)).type).toBe('request');
      expect(await ledgerShown(page)).toEqual(['no ledger row']);

      await stepUntil(page, (m) => m.type === 'reply');
      const reply = page.locator('.moment.current');
      await expect(reply.locator('.certainty.indefinite').innerText()).resolves.toContain('INDEFINITE');
      await expect(reply.locator('.truth').innerText()).resolves.toContain('the runner cannot know');
      // The runner still believes its reserve is pending: what it knows, beside the row it cannot see.
      await expect(page.locator('[data-rs-state]:visible').innerText()).resolves.toMatch(/pending\s+reserve\(item=camera qty=1 expected_version=0 key=2872d1b4…\)/);

      if (process.env.UPDATE_SCREENSHOT === '1') {
        // The README's picture: the lost reply, with the commit above it and both databases below.
        await page.evaluate(() => window.scrollBy(0, document.querySelector('.moment.current')!.getBoundingClientRect().top - 330));
        await page.screenshot({ path: join(out, 'timeline.png') });
        copyFileSync(join(out, 'timeline.png'), join(ROOT, 'docs', 'timeline.png'));
      }

      await stepUntil(page, (m) => m.text.includes('ledger hit'));
      expect((await current(page)).when).toBe('127ms · step 5 · db');
      expect(await ledgerShown(page)).toHaveLength(1); // the retry found the receipt: still one row
      expect(problemsOf(page)).toEqual([]);
    });
  });

  describe('the timeline of crash_after_commit', () => {
    it('draws the crash as a cut across the runner, then recovers from the log at event #12', async () => {
      const page = await open(join(out, 'run', 'crash_after_commit.html'));
      await stepUntil(page, (m) => m.type === 'crash');
      const cut = page.locator('.moment.current .cut');
      await expect(cut.isVisible()).resolves.toBe(true);
      await expect(cut.innerText()).resolves.toContain('CRASH (crash_after_commit)');
      await expect(page.locator('[data-rs-state]:visible').innerText()).resolves.toContain('the process is down');
      expect(await ledgerShown(page)).toHaveLength(1); // committed before the crash: it survives

      await page.keyboard.press('ArrowRight');
      const recovered = await current(page);
      expect(recovered.type).toBe('recovered');
      expect(recovered.text).toContain('state rebuilt from event #12 — reserve pending, attempt 1, calls 4');
      await expect(page.locator('table.events-log tr[data-seq]:visible').first().innerText()).resolves.toMatch(/^#12\s+attempt_started/);
      await expect(page.locator('[data-rs-state]:visible').innerText()).resolves.toMatch(/attempts\s+1/);
      expect(problemsOf(page)).toEqual([]);
    });
  });

  describe('the timeline of zombie_after_pause: a lane per worker', () => {
    /** What the chosen moment shows in a worker's lane (w1, w2, sweeper) or the queue's. */
    const lane = (page: Page, n: number) => page.locator(`.moment.current > div:nth-child(${n + 1})`).innerText();

    it('shows w1, w2 and the sweeper side by side, the token on every write, the lease expiring and the zombie refused', async () => {
      const page = await open(join(out, 'workers', 'zombie_after_pause.html'));
      await expect(page.locator('.lane-head').innerText()).resolves.toMatch(/w1[\s\S]*w2[\s\S]*sweeper[\s\S]*queue\.db[\s\S]*tool · tool\.db/);
      // Every line w1 saves carries its token, as a mark of its own.
      await stepUntil(page, (m) => m.type === 'saved');
      await expect(page.locator('.moment.current .wl-0 .token').innerText()).resolves.toBe('token 1');
      await expect(page.locator('[data-q-state]:visible').innerText()).resolves.toContain('running w1 · token 1 · lease until 500ms');

      // At 500 ms, while w1 is paused: its lease expires, in its own lane and on the queue's row.
      await stepUntil(page, (m) => m.type === 'lease_expired');
      expect((await current(page)).when).toBe('500ms · step 4 · lease_expired');
      await expect(page.locator('.moment.current .wl-0 .expiry').innerText()).resolves.toContain('the lease of w1 (token 1) expired at 500ms');
      await expect(page.locator('.moment.current .wl-queue .expiry').isVisible()).resolves.toBe(true);
      await stepUntil(page, (m) => m.type === 'tasks');
      await expect(page.locator('[data-q-state]:visible').innerText()).resolves.toContain('queued · token 1');

      // w2 takes it under token 2, and its effect's receipt is committed under token 2.
      await stepUntil(page, (m) => m.type === 'db' && m.text.includes('ledger +1'));
      await expect(page.locator('.moment.current .wl-tool .token').innerText()).resolves.toBe('token 2');

      // w1 wakes a zombie: its reserve under token 1 is refused at once, nothing written.
      await stepUntil(page, (m) => m.type === 'reply' && m.text.includes('STALE_FENCE'));
      expect(await lane(page, 1)).toContain('STALE_FENCE: reserve under token 1 refused — nothing written');
      expect(await lane(page, 2)).toBe('');
      expect(await ledgerShown(page)).toHaveLength(1);
      await stepUntil(page, (m) => m.type === 'lease_lost');
      await expect(page.locator('.moment.current .wl-0 .zombie').isVisible()).resolves.toBe(true);

      if (process.env.UPDATE_SCREENSHOT === '1') {
        await page.evaluate(() => window.scrollBy(0, document.querySelector('.moment.current')!.getBoundingClientRect().top - 330));
        await page.screenshot({ path: join(out, 'timeline-workers.png') });
        copyFileSync(join(out, 'timeline-workers.png'), join(ROOT, 'docs', 'timeline-workers.png'));
      }
      expect(problemsOf(page)).toEqual([]);
    });
  });

  describe('a failing learner, graded, beside the reference', () => {
    it('steps both runs to the first divergence: the new key at step 4', async () => {
      const page = await open(join(out, 'grade', 'NewKeyPerAttempt__lost_reply.html'));
      await expect(page.locator('header .diverge').innerText()).resolves.toContain('your reserve has a new key');
      await page.keyboard.press('End');
      const last = await current(page);
      expect(last.id).toBe('s4');
      await expect(page.locator('.moment.current .diverge').innerText()).resolves.toContain('step 4 (#12): both saved attempt_started');
      const mine = await page.locator('.moment.current .mine').innerText();
      expect(mine).toContain('⚠ the key changed since the last save of this action');
      await expect(page.locator('.moment.current .ref').innerText()).resolves.not.toContain('the key changed');
      await expect(page.locator('details').getAttribute('open')).resolves.toBeNull(); // the rest is folded away
      expect(problemsOf(page)).toEqual([]);
    });

    it('has an index that links every graded scenario', async () => {
      const page = await open(join(out, 'grade', 'index.html'));
      await expect(page.locator('a[href$=".html"]').count()).resolves.toBe(20); // the graded set: the 17 and scenarios/graded
      expect(problemsOf(page)).toEqual([]);
    });
  });
});
