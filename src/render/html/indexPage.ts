/** The index of one command's pages, and a page for a run that has only a text trace (a pillar lab). */
import { esc } from './escape.js';
import { page } from './page.js';
import { t, type Lang } from '../words/index.js';

export interface IndexEntry {
  /** The page's file name, relative to the index. */
  file: string;
  id: string;
  title: string;
  status: string;
  passed: boolean;
}

export function renderIndexHtml(lang: Lang, title: string, subtitle: string, entries: readonly IndexEntry[]): string {
  const rows = entries.map(
    (e, i) =>
      `<tr><td class="num">${i + 1}</td><td><a href="${esc(encodeURI(e.file))}"><code>${esc(e.id)}</code></a></td><td>${esc(e.title)}</td><td>${esc(e.status)}</td><td class="${e.passed ? 'pass' : 'fail'}">${esc(t(lang, e.passed ? 'html.index.pass' : 'html.index.fail'))}</td></tr>`,
  );
  const passed = entries.filter((e) => e.passed).length;
  const body = [
    '<header class="top">',
    `<h1>${esc(title)}</h1>`,
    `<p class="meta">${esc(subtitle)} · ${esc(t(lang, 'summary.tally', { passed, failed: entries.length - passed }))}</p>`,
    '</header>',
    '<main class="index">',
    `<table><thead><tr><th>#</th>${(['html.index.run', 'html.index.title', 'html.index.status', 'html.index.verdict'] as const).map((key) => `<th>${esc(t(lang, key))}</th>`).join('')}</tr></thead><tbody>`,
    ...rows,
    '</tbody></table>',
    '</main>',
  ].join('\n');
  return page(lang, title, body);
}

/** A run whose renderer is text only: the text, as it printed, in a page of its own. */
export function renderTextPageHtml(lang: Lang, title: string, text: string): string {
  return page(lang, `${title} — faultlab`, `<header class="top"><h1><code>${esc(title)}</code></h1></header>\n<pre class="text">${esc(text)}</pre>`);
}
