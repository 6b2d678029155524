/**
 * Reading a lesson: its commands with their claims, its verified excerpts, its links and its headings.
 * Pure text in, plain data out (and a list of problems for anything that breaks the convention), so the
 * rules can be tested on small made-up lessons as well as on the real ones. The convention is described
 * in test/lessons/README.md.
 */

export type Claim =
  | { kind: 'exit'; code: number; line: number }
  | { kind: 'output'; text: string; line: number }
  | { kind: 'no-output'; text: string; line: number }
  /** The block runs a faultlab command another branch brings (e.g. `torture`): skipped, and said so, until faultlab has it. */
  | { kind: 'needs'; command: string; line: number };

export interface CommandBlock {
  /** The command exactly as the lesson shows it. */
  command: string;
  /** 1-based line of the command in the lesson. */
  line: number;
  claims: Claim[];
  /** The heading the command sits under (e.g. "Try it"). */
  section: string;
}

export interface Excerpt {
  /** Either a command (run, and its output searched) or a file (read and searched). */
  source: { kind: 'command'; command: string } | { kind: 'file'; path: string };
  /** The excerpt's lines, trimmed, without blank lines and elisions (…). */
  lines: Array<{ text: string; line: number }>;
  line: number;
}

export interface Link {
  target: string;
  line: number;
}

export interface Heading {
  level: number;
  text: string;
  slug: string;
  line: number;
}

export interface LessonDoc {
  commands: CommandBlock[];
  excerpts: Excerpt[];
  links: Link[];
  headings: Heading[];
  /** Violations of the convention itself (orphan claims, unknown claims, shell blocks in another language…). */
  problems: string[];
}

/** Fence languages that look like a command a reader would type; only `sh` is run, so the others are refused. */
const OTHER_SHELLS = new Set(['bash', 'shell', 'console', 'zsh', 'sh-session', 'shellsession', 'terminal']);
const ELISION = /^(…|\.\.\.|⋮)$/;

const EXPECT = /^<!--\s*expect\b(.*?)-->\s*$/;
const EXPECT_EXIT = /^\s*exit:\s*(\d+)\s*$/;
const EXPECT_OUTPUT = /^\s*(output|no output):\s*"(.*)"\s*$/;
const EXPECT_NEEDS = /^\s*needs:\s*([a-z][a-z-]*)\s*$/;
/**
 * `<!-- zh-todo: … -->` once marked a line a Chinese lesson meant to quote when the program spoke Chinese. It
 * does now, and a claim nobody checks is a defect: a lesson that still holds one breaks the convention.
 */
const ZH_TODO = /<!--\s*zh-todo\b/i;
const EXCERPT = /^<!--\s*excerpt of( file)?:\s*(.+?)\s*-->\s*$/;

interface Fence {
  char: string;
  size: number;
  lang: string;
  start: number;
  body: Array<{ text: string; line: number }>;
}

export function parseLesson(text: string): LessonDoc {
  const lines = text.split(/\r?\n/);
  const doc: LessonDoc = { commands: [], excerpts: [], links: [], headings: [], problems: [] };
  const slugCounts = new Map<string, number>();
  let fence: Fence | null = null;
  let section = '';
  /** A command block whose claims may follow on the next lines. */
  let claimsFor: CommandBlock | null = null;
  /** An excerpt comment waiting for its fenced block on the next line. */
  let excerptSource: { source: Excerpt['source']; line: number } | null = null;

  lines.forEach((raw, index) => {
    const n = index + 1;
    const line = raw.trimEnd();

    if (fence !== null) {
      const close = line.trim().match(/^(`{3,}|~{3,})\s*$/);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.size) {
        const done: Fence = fence;
        fence = null;
        claimsFor = closeFence(done, section, doc, excerptSource);
        excerptSource = null;
      } else {
        fence.body.push({ text: raw, line: n });
      }
      return;
    }

    const open = line.match(/^\s*(`{3,}|~{3,})\s*([\w+-]*)/);
    if (open) {
      if (excerptSource !== null && excerptSource.line !== n - 1) {
        doc.problems.push(`line ${excerptSource.line}: an excerpt comment must be followed at once by its fenced block`);
        excerptSource = null;
      }
      fence = { char: open[1]![0]!, size: open[1]!.length, lang: (open[2] ?? '').toLowerCase(), start: n, body: [] };
      claimsFor = null;
      return;
    }

    if (ZH_TODO.test(line)) {
      doc.problems.push(`line ${n}: a zh-todo is a claim nobody checks — quote the line the program prints as <!-- expect output: "…" --> (the output is in Chinese now): ${line.trim()}`);
      return;
    }

    const expect = line.trim().match(EXPECT);
    if (expect) {
      const claim = parseClaim(expect[1]!, n, doc.problems);
      if (claimsFor === null) doc.problems.push(`line ${n}: a claim must follow a \`\`\`sh block at once (no blank line between): ${line.trim()}`);
      else if (claim !== null) claimsFor.claims.push(claim);
      return;
    }
    claimsFor = null;

    const excerpt = line.trim().match(EXCERPT);
    if (excerpt) {
      if (excerptSource !== null) doc.problems.push(`line ${excerptSource.line}: an excerpt comment must be followed at once by its fenced block`);
      excerptSource = {
        source: excerpt[1] ? { kind: 'file', path: excerpt[2]! } : { kind: 'command', command: excerpt[2]! },
        line: n,
      };
      return;
    }
    if (excerptSource !== null) {
      doc.problems.push(`line ${excerptSource.line}: an excerpt comment must be followed at once by its fenced block`);
      excerptSource = null;
    }

    const heading = line.match(/^(#{1,6})\s+(.*?)\s*#*\s*$/);
    if (heading) {
      const headingText = heading[2]!;
      const base = slugify(headingText);
      const seen = slugCounts.get(base) ?? 0;
      slugCounts.set(base, seen + 1);
      doc.headings.push({ level: heading[1]!.length, text: headingText, slug: seen === 0 ? base : `${base}-${seen}`, line: n });
      section = headingText;
    }

    for (const target of linkTargets(line)) doc.links.push({ target, line: n });
  });

  // The callback above reassigns both; TypeScript cannot see that, hence the explicit types.
  const unclosed = fence as Fence | null;
  const dangling = excerptSource as { line: number } | null;
  if (unclosed !== null) doc.problems.push(`line ${unclosed.start}: a fenced block is never closed`);
  if (dangling !== null) doc.problems.push(`line ${dangling.line}: an excerpt comment must be followed at once by its fenced block`);
  return doc;
}

function closeFence(done: Fence, section: string, doc: LessonDoc, excerptSource: { source: Excerpt['source']; line: number } | null): CommandBlock | null {
  if (excerptSource !== null) {
    const kept = done.body
      .map((b) => ({ text: b.text.trim(), line: b.line }))
      .filter((b) => b.text !== '' && !ELISION.test(b.text));
    if (kept.length === 0) doc.problems.push(`line ${done.start}: an excerpt with nothing in it`);
    doc.excerpts.push({ source: excerptSource.source, lines: kept, line: done.start });
    return null;
  }
  if (OTHER_SHELLS.has(done.lang)) {
    doc.problems.push(`line ${done.start}: a \`\`\`${done.lang} block is never run — write commands in \`\`\`sh blocks so the lesson test checks them`);
    return null;
  }
  if (done.lang !== 'sh') return null;
  const body = done.body.map((b) => ({ text: b.text.trim(), line: b.line })).filter((b) => b.text !== '');
  if (body.length !== 1) {
    doc.problems.push(`line ${done.start}: a \`\`\`sh block must hold exactly one command (it holds ${body.length})`);
    return null;
  }
  const block: CommandBlock = { command: body[0]!.text, line: body[0]!.line, claims: [], section };
  doc.commands.push(block);
  return block;
}

function parseClaim(rest: string, line: number, problems: string[]): Claim | null {
  const exit = rest.match(EXPECT_EXIT);
  if (exit) return { kind: 'exit', code: Number(exit[1]), line };
  const output = rest.match(EXPECT_OUTPUT);
  if (output) {
    const text = output[2]!;
    if (text.trim() === '') {
      problems.push(`line ${line}: an empty output claim proves nothing`);
      return null;
    }
    return { kind: output[1] === 'output' ? 'output' : 'no-output', text, line };
  }
  const needs = rest.match(EXPECT_NEEDS);
  if (needs) return { kind: 'needs', command: needs[1]!, line };
  problems.push(`line ${line}: unknown claim "expect${rest.trimEnd()}" — use exit: N, output: "…", no output: "…" or needs: COMMAND`);
  return null;
}

/** Inline links and images outside inline code: [text](target) — the target without a title. */
function linkTargets(line: string): string[] {
  const withoutCode = line.replace(/`[^`]*`/g, '');
  const targets: string[] = [];
  for (const match of withoutCode.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]!);
  return targets;
}

/** GitHub's heading anchors: lower case, markdown and punctuation dropped, spaces to hyphens. */
export function slugify(heading: string): string {
  return heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*{1,3}([^*]+)\*{1,3}/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}
