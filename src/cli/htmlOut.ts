/**
 * `--html DIR`: the pages of one command, written to DIR — one self-contained file per run and an
 * index.html that links them in the order they ran. The pages themselves are pure functions of the runs
 * (src/render/html); this is only where they meet the file system.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { renderIndexHtml, type IndexEntry } from '../render/html/index.js';
import type { Lang } from '../core/lang.js';

export class HtmlOut {
  readonly dir: string;
  readonly #entries: IndexEntry[] = [];
  readonly #used = new Set<string>();

  /** `lang`: the language of the index page (each run's page is worded when it is made). */
  constructor(
    dir: string,
    cwd: string,
    readonly lang: Lang,
  ) {
    this.dir = resolve(cwd, dir);
    mkdirSync(this.dir, { recursive: true });
  }

  /** Write one page; its file is named for the run (`lost_reply.html`), made unique within the folder. */
  add(name: string, html: string, entry: Omit<IndexEntry, 'file'>): string {
    const base = name.replace(/[^A-Za-z0-9_.-]+/g, '_') || 'run';
    let file = `${base}.html`;
    for (let n = 2; this.#used.has(file) || file === 'index.html'; n++) file = `${base}-${n}.html`;
    this.#used.add(file);
    writeFileSync(join(this.dir, file), html);
    this.#entries.push({ ...entry, file });
    return file;
  }

  /** Write index.html and say where it is, relative to the working directory. */
  finish(title: string, subtitle: string, cwd: string): string {
    const index = join(this.dir, 'index.html');
    writeFileSync(index, renderIndexHtml(this.lang, title, subtitle, this.#entries));
    const shown = relative(cwd, index);
    return shown === '' || shown.startsWith('..') ? index : shown;
  }
}
