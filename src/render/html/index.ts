/** The HTML pages: a run's timeline, a grade's two runs side by side, an index of one command's pages. */
export { renderRunHtml } from './runPage.js';
export { renderGradeHtml, type DivergencePoint } from './gradePage.js';
export { renderIndexHtml, renderTextPageHtml, type IndexEntry } from './indexPage.js';
export { timelineOf } from './moments.js';
