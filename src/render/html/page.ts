/**
 * The shell every page shares: one file with its style and script inline, nothing fetched — a Content
 * Security Policy says so to the browser too (`default-src 'none'`), so a page that tried to load anything
 * would fail in the browser test, not only in a grep. Sized for a projector: large type, strong contrast,
 * and every colour doubled by a word or a shape.
 */
import { esc } from './escape.js';
import { t, type Lang } from '../words/index.js';

/** The style; the few words it puts before a mark (`+ saved`, `broke here`) are in the page's language. */
const css = (lang: Lang): string => `
:root { --ink:#111; --paper:#fff; --rule:#888; --soft:#f2f2f2; --ok:#0b6623; --bad:#a3001b; --warn:#6e4500; --db:#004f74;
  --fault:#5b1a86; --other:#6b2c5f; --dim:#4d4d4d; --pick:#fff3b0; --mono: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
* { box-sizing: border-box; }
html { font-size: 19px; }
body { margin: 0; color: var(--ink); background: var(--paper); font-family: "DejaVu Sans", "Noto Sans", "Noto Sans CJK SC", system-ui, sans-serif; line-height: 1.35; }
header.top { padding: .8rem 1.2rem .4rem; border-bottom: 3px solid var(--ink); }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; }
h1 code { font-size: 1.4rem; }
h2 { font-size: 1.15rem; margin: .2rem 0 .4rem; }
h3 { font-size: .95rem; margin: 0 0 .3rem; }
p { margin: .25rem 0; }
code, .mono { font-family: var(--mono); font-size: .9em; }
.explain { max-width: 62rem; color: var(--dim); }
.meta { font-size: .9rem; }
.help { font-size: .85rem; color: var(--dim); }
kbd { border: 2px solid var(--ink); border-radius: 4px; padding: 0 .3rem; font-family: var(--mono); background: var(--soft); }
.verdict { font-weight: bold; font-size: 1.1rem; }
.verdict.pass::before { content: "✔ "; } .verdict.fail::before { content: "✘ "; }
.pass { color: var(--ok); } .fail { color: var(--bad); }
.tone-dim { color: var(--dim); } .tone-ok { color: var(--ok); } .tone-okStrong { color: var(--ok); font-weight: bold; }
.tone-bad { color: var(--bad); } .tone-badStrong { color: var(--bad); font-weight: bold; } .tone-warn { color: var(--warn); }
.tone-db { color: var(--db); } .tone-fault { color: var(--fault); font-weight: bold; } .tone-other { color: var(--other); }
.tone-prepared { color: var(--db); } .tone-attempt { color: #1d3f9e; }
.lanes { display: grid; grid-template-columns: 5.2rem minmax(0,1fr) minmax(0,1.5fr) minmax(0,1.6fr) minmax(0,1.1fr) minmax(0,1.35fr); }
.lanes > * { padding: .2rem .45rem; min-width: 0; overflow-wrap: anywhere; }
ol.moments .lanes > * { font-size: .92rem; }
.lane-head { position: sticky; top: 0; z-index: 2; background: var(--ink); color: var(--paper); font-weight: bold; font-size: .85rem; }
.lane-head small { display: block; font-weight: normal; opacity: .85; }
ol.moments { list-style: none; margin: 0; padding: 0; }
.moment { border-bottom: 1px solid #ccc; cursor: pointer; scroll-margin: 3.5rem 0 41vh; }
.moment:hover { background: #fafafa; }
.moment.current { background: var(--pick); outline: 3px solid var(--ink); outline-offset: -3px; }
.moment.current .t::before { content: "▶ "; }
.t { font-family: var(--mono); font-size: .85rem; text-align: right; white-space: nowrap; }
.t small { display: block; color: var(--dim); }
.l-events { grid-column: 2; border-right: 1px dashed var(--rule); background: rgba(0,79,116,.04); }
.l-runner { grid-column: 3; border-right: 3px solid var(--ink); }
.l-wire { grid-column: 4; border-right: 3px solid var(--ink); }
.l-tool { grid-column: 5; border-right: 1px dashed var(--rule); }
.l-db { grid-column: 6; background: rgba(0,79,116,.04); }
.lanes > div { grid-row: 1; }
.lanes > .span { grid-column: 2 / -1; grid-row: 2; }
.lanes > .span + .span { grid-row: 3; }
.line { display: block; }
.line.deep { padding-left: 1rem; }
.label { display: inline-block; border: 2px solid currentColor; border-radius: .3rem; padding: 0 .3rem; font-family: var(--mono); font-size: .85rem; margin-right: .3rem; }
.calls { font-size: .8rem; color: var(--dim); white-space: nowrap; }
.write { font-family: var(--mono); font-size: .8rem; }
.write::before { content: "${cssText(t(lang, 'html.css.saved'))}"; font-family: inherit; }
.certainty { display: inline-block; font-weight: bold; padding: 0 .35rem; margin-right: .3rem; border-radius: .2rem; }
.certainty.definite { border: 2px solid var(--ink); }
.certainty.definite::before { content: "■ "; }
.certainty.indefinite { border: 3px dashed var(--bad); color: var(--bad); background: #fff0f0; }
.certainty.indefinite::before { content: "◇? "; }
.truth { border: 2px dotted var(--warn); padding: .15rem .3rem; background: repeating-linear-gradient(135deg, #fff8e6 0 8px, #fff 8px 16px); }
.truth::before { content: "${cssText(t(lang, 'html.css.truth'))}"; font-size: .75rem; font-weight: bold; display: block; }
.cut { grid-column: 2 / 4 !important; color: var(--bad); font-weight: bold; padding: .6rem .5rem !important;
  background: linear-gradient(135deg, transparent 75%, #fff 75%) 0 0 / 18px 18px, linear-gradient(45deg, transparent 75%, #fff 75%) 0 0 / 18px 18px, #ffd6db;
  border-top: 4px dashed var(--bad); border-bottom: 4px dashed var(--bad); }
.cut::before { content: "✂ "; }
.recovered { color: var(--ok); font-weight: bold; }
.broke { color: var(--bad); font-weight: bold; border: 3px solid var(--bad); background: #fff0f0; padding: .25rem .45rem; }
.broke::before { content: "${cssText(t(lang, 'html.css.broke'))}"; }
.diverge { border: 3px solid var(--fault); color: var(--fault); font-weight: bold; background: #f6effa; padding: .25rem .45rem; }
.diverge::before { content: "${cssText(t(lang, 'html.css.diverge'))}"; }
main.run { padding-bottom: 42vh; }
section.checks { padding: .6rem 1.2rem; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: .15rem .5rem; border-bottom: 1px solid #ccc; vertical-align: top; }
th { font-size: .85rem; }
td.num { text-align: right; font-family: var(--mono); }
tr.failed td { color: var(--bad); }
.then { position: fixed; left: 0; right: 0; bottom: 0; height: 40vh; overflow: auto; background: var(--paper); border-top: 4px solid var(--ink);
  padding: .4rem 1.2rem .6rem; box-shadow: 0 -4px 12px rgba(0,0,0,.15); z-index: 3; }
.then h2 { font-size: 1rem; }
.boxes { display: grid; grid-template-columns: minmax(0,1.2fr) minmax(0,1.1fr) minmax(0,1.2fr); gap: 1rem; }
.box { font-size: .85rem; min-width: 0; overflow: hidden; }
.box table { width: 100%; table-layout: fixed; }
.box td, .box th { overflow-wrap: anywhere; }
.box .events-log th:nth-child(1) { width: 3rem; } .box .events-log th:nth-child(2) { width: 42%; } .box .events-log th:nth-child(4) { width: 3.6rem; }
.box .runner-state th { width: 7.5rem; }
tr.fresh td, .fresh .changed td { background: var(--pick); font-weight: bold; }
.new-mark { display: none; }
tr.fresh .new-mark, .fresh .changed .new-mark { display: inline; }
.down { color: var(--bad); font-weight: bold; }
.grade .lanes { grid-template-columns: 5.2rem minmax(0,1fr) minmax(0,1fr); }
.grade .ref { grid-column: 2; border-right: 3px solid var(--ink); }
.grade .mine { grid-column: 3; }
.grade .moment.after { opacity: .55; }
.index td, .index th { font-size: 1rem; padding: .3rem .7rem; }
pre.text { font-family: var(--mono); font-size: .85rem; padding: 1rem; white-space: pre-wrap; }
`;

/** Stepping: ← and → move through the moments (Home, End), a click picks one; the panel shows that moment's rows. */
/** Words the script writes into the page: `3 of 12`. */
const script = (lang: Lang): string => `
(() => {
  const moments = Array.from(document.querySelectorAll('[data-moment]'));
  if (moments.length === 0) return;
  const all = (selector) => Array.from(document.querySelectorAll(selector));
  let current = -1;
  function select(i, scroll) {
    i = Math.max(0, Math.min(moments.length - 1, i));
    if (current >= 0) { moments[current].classList.remove('current'); moments[current].removeAttribute('aria-current'); }
    current = i;
    const m = moments[i];
    m.classList.add('current');
    m.setAttribute('aria-current', 'step');
    if (m.dataset.db !== undefined) {
      all('[data-db-state]').forEach((el) => { el.hidden = el.dataset.dbState !== m.dataset.db; el.classList.toggle('fresh', m.dataset.fresh === '1'); });
      all('[data-rs-state]').forEach((el) => { el.hidden = el.dataset.rsState !== m.dataset.rs; });
      const log = Number(m.dataset.log);
      all('tr[data-seq]').forEach((tr) => { tr.hidden = Number(tr.dataset.seq) > log; tr.classList.toggle('fresh', tr.dataset.seq === m.dataset.saved); });
    }
    all('[data-now]').forEach((el) => { el.textContent = m.dataset.when; });
    all('[data-position]').forEach((el) => { el.textContent = (i + 1) + '${jsText(t(lang, 'html.of'))}' + moments.length; });
    if (scroll) m.scrollIntoView({ block: 'nearest' });
  }
  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: moments.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    select(to, true);
  });
  moments.forEach((m, i) => m.addEventListener('click', () => select(i, false)));
  all('a[data-goto]').forEach((a) => a.addEventListener('click', (e) => {
    const i = moments.findIndex((m) => m.id === a.dataset.goto);
    if (i >= 0) { e.preventDefault(); select(i, true); }
  }));
  const start = moments.findIndex((m) => '#' + m.id === location.hash);
  select(start >= 0 ? start : 0, start >= 0);
})();
`;

/** Text inside a CSS string: a quote or a backslash escaped, a line break never there. */
function cssText(text: string): string {
  return text.replace(/[\\"]/g, (ch) => `\\${ch}`).replace(/[\r\n]/g, ' ');
}

/** Text inside a single-quoted script string, inside a <script>: nothing that could end either. */
function jsText(text: string): string {
  return text.replace(/[\\']/g, (ch) => `\\${ch}`).replace(/</g, '\\x3c').replace(/[\r\n]/g, ' ');
}

/** `style`, `script`: what one kind of page adds to the shared ones (a many-worker run's lanes), after them. */
export function page(lang: Lang, title: string, body: string, options: { bodyClass?: string; style?: string; script?: string } = {}): string {
  return [
    '<!doctype html>',
    `<html lang="${lang}">`,
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<style>${css(lang)}${options.style ?? ''}</style>`,
    '</head>',
    `<body${options.bodyClass ? ` class="${esc(options.bodyClass)}"` : ''}>`,
    body,
    `<script>${script(lang)}${options.script ?? ''}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
