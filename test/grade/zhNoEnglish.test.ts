/**
 * No English sentence reaches a Chinese reader. Under `--lang zh`, everything a learner or a teacher reads — the
 * trace of every one of the 17 scenarios, the explorer's report, the grade of every learner fixture (the older
 * runner files and each classic mistake), as written and explored, the replay files' `zh:` text and the Exercism
 * messages — is Chinese, the tools' refusals included (PAYLOAD_CONFLICT, INSUFFICIENT_STOCK, NOT_AUTHORIZED, …
 * are worded at the edge, src/render/words/refusalText.ts).
 *
 * What is not English prose, and may stay: names that are data — ids, paths, commands, codes (`STALE_FENCE`),
 * statuses, the fields of the state, tools, items, event labels (GLOSSARY.md, "The grader and the explorer") —
 * and what a learner's own code said: the text of its throws and prints, and the error messages of V8 and the
 * libraries its step called, quoted as they were thrown (ALLOWED below, each with why).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { initialState } from '../../src/runner/state.js';
import { REQUIRED_ARGS } from '../../src/runner/validateAction.js';
import { TERMINAL_STATUSES } from '../../src/scenario/types.js';
import { ATTEMPT_FAULT_KINDS } from '../../src/faults/types.js';
import type { ExercismResults } from '../../src/grade/reporters/exercism.js';
import { REFUSALS, refusalText, type RefusalKey } from '../../src/inventory/refusals.js';
import { findRefusals } from '../../src/render/words/refusalText.js';
import { placeholders, toolText } from '../../src/render/words/index.js';
import { faultlab, LEARNERS, learner, mistake, ROOT, SEVENTEEN, tmp } from './helpers.js';

/**
 * An English sentence: three or more English words in a row — a word being letters only, lower case after its
 * first, two letters or more, and not one of the data words below — where numbers, single letters (a key named
 * `k`) and marks between them neither count nor break the run, and anything else (Chinese, an identifier with
 * `_`, `.`, `/`, `:` or digits, an upper-case code, a camelCase name) ends it. Text in backticks, and commands
 * (`npx faultlab run …`, `npm run grade`), are not prose.
 */
const RUN = 3;
const CHINESE = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
const WORD = /^[A-Za-z][a-z]+$/;
const NEUTRAL = /^(?:[^A-Za-z]*|[A-Za-z])$/;
const EDGE = /^[("'“‘[{<]+|[)"'”’\]}>,.;:!?…]+$/g;
const COMMAND = /\b(?:npx faultlab|faultlab|npm run)(?: [a-z]+)?\b/g;

/** Names a Chinese output prints as they are: they are data (GLOSSARY.md), not English prose. */
const DATA_WORDS = new Set<string>([
  // the fields of a runner's state, and the figures a check names
  ...Object.keys(initialState(SEVENTEEN[0]!.task)),
  'ledger',
  'stock',
  'error',
  // tools, items, queries and statuses the scenarios name
  ...Object.keys(REQUIRED_ARGS),
  ...SEVENTEEN.flatMap((s) => [...Object.keys(s.inventory.items), ...s.task.items, ...s.script.flatMap((step) => (step.kind === 'tool' ? Object.values(step.args).filter((v): v is string => typeof v === 'string') : [step.status]))]),
  ...TERMINAL_STATUSES,
  // the runner's event labels and the faults' kinds, as the trace prints them
  ...['started', 'prepared', 'observed', 'transient', 'crashed', 'recovered', 'finished', 'unavailable'],
  ...ATTEMPT_FAULT_KINDS,
  // the runners' names (`--runner reference`, `reference Runner`) and the class a learner writes
  ...['reference', 'learner', 'mutant', 'Runner'],
]);

/**
 * English that may reach a Chinese reader, and why: each is quoted from what a learner's step threw, not said by
 * faultlab. (A learner fixture's own words — its throws and prints — are allowed by reading the fixture: see
 * ownWords.)
 */
const ALLOWED: ReadonlyArray<{ text: string; why: string }> = [
  {
    text: 'The database connection is not open',
    why: "better-sqlite3's own error: the crash-caught mistake catches the simulated crash and carries on, and its next write throws this; the grader quotes the learner's throw as it was thrown",
  },
];

/** The English sentences in a text, each with its line. */
export function englishSentences(text: string, allowed: (run: string) => boolean = () => false): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    const prose = line.replace(/`[^`]*`/g, ' ').replace(COMMAND, ' ');
    for (const segment of prose.split(CHINESE)) {
      let run: string[] = [];
      const flush = () => {
        if (run.length >= RUN) {
          const words = run.join(' ');
          if (!allowed(words)) found.push(`${words}   ← ${line.trim()}`);
        }
        run = [];
      };
      for (const token of segment.split(/\s+/)) {
        const core = token.replace(EDGE, '');
        if (WORD.test(core) && !DATA_WORDS.has(core)) run.push(core);
        else if (!(NEUTRAL.test(core) || DATA_WORDS.has(core))) flush();
      }
      flush();
    }
  }
  return found;
}

/** What a learner's own file says — its string literals: what it throws and prints — its words one space apart. */
function ownWords(file: string): string {
  const literals = readFileSync(file, 'utf8').match(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g) ?? [];
  return literals.map((literal) => literal.replace(/[^A-Za-z]+/g, ' ')).join(' | ');
}

const allowedFor = (file?: string) => {
  const own = file === undefined ? '' : ownWords(file);
  return (run: string) => ALLOWED.some((a) => a.text.replace(/[^A-Za-z]+/g, ' ').includes(run)) || own.includes(run);
};

const FIXTURES = [
  ...readdirSync(LEARNERS)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => learner(name.replace(/\.ts$/, ''))),
  ...readdirSync(join(LEARNERS, 'mistakes')).map((name) => mistake(name)),
];
const rel = (path: string) => relative(ROOT, path);

describe('the detector', () => {
  it('finds an English sentence, and lets data, commands, codes and a learner’s own words through', () => {
    expect(englishSentences('✘ ContractError PAYLOAD_CONFLICT: 键 k 已经存着另一个请求的回执（camera ×1）')).toEqual([]);
    expect(englishSentences('重放      npx faultlab run scenarios/lost_reply.yaml --runner test/fixtures/learners/Correct.ts --lang zh')).toEqual([]);
    expect(englishSentences('127ms    6 16  succeeded                 5  succeeded')).toEqual([]);
    expect(englishSentences('数字      status 预期 succeeded，实际 tool_error · pending 预期 null，实际 reserve')).toEqual([]);
    expect(englishSentences('tool_error: STALE_VERSION: expected version 0, found 1')).toEqual(['expected version found   ← tool_error: STALE_VERSION: expected version 0, found 1']);
    expect(englishSentences('（reserve 第 2 次尝试）the reply is lost after the commit')).toHaveLength(1);
    expect(englishSentences('TypeError: The database connection is not open', allowedFor())).toEqual([]);
  });

  it("catches one deliberately English message in a real Chinese grade", async () => {
    const args = ['grade', rel(mistake('new-key-per-attempt')), '--scenarios', 'lost_reply', '--no-explore'];
    const [zh, en] = await Promise.all([faultlab([...args, '--lang', 'zh']), faultlab(args)]);
    expect(englishSentences(zh.stdout)).toEqual([]);
    // the English hint, dropped into the Chinese report as a message left unworded would be
    const englishHint = en.stdout.split('\n').find((line) => line.startsWith('    1. '))!;
    const leaked = zh.stdout.replace(/\n {4}1\. [^\n]*/, `\n${englishHint}`);
    expect(englishSentences(leaked)).toEqual([expect.stringContaining(englishHint.trim())]);
  });
});

describe("the tools' refusals", () => {
  it('each template reads back out of its text — which one, and its values — and words in Chinese with no English sentence', () => {
    for (const key of Object.keys(REFUSALS) as RefusalKey[]) {
      const params = Object.fromEntries(placeholders(REFUSALS[key]).map((name, i) => [name, i === 0 ? `"a b"` : `x_${name}`]));
      const text = `tool_error: NOT_AUTHORIZED: ${refusalText(key, params)}`;
      expect(findRefusals(text).map((f) => [f.key, f.params]), key).toEqual([[key, params]]);
      const zh = toolText('zh', text);
      expect(zh, key).not.toBe(text);
      expect(englishSentences(zh), key).toEqual([]);
      expect(toolText('en', text)).toBe(text); // English is the tool's own
    }
  });

  it('leaves a text with no refusal in it, or one this build does not know, as it is', () => {
    expect(toolText('zh', 'lost_reply')).toBe('lost_reply');
    expect(toolText('zh', 'PAYLOAD_CONFLICT: something a newer tool says')).toBe('PAYLOAD_CONFLICT: something a newer tool says');
  });
});

describe('under --lang zh, no English sentence', { timeout: 600_000 }, () => {
  it('in the trace of every one of the 17 scenarios', async () => {
    const { stdout, stderr } = await faultlab(['run', ...SEVENTEEN.map((s) => s.id), '--all', '--lang', 'zh']);
    expect(stdout).toContain('17 个通过，0 个失败');
    expect(englishSentences(stdout + stderr)).toEqual([]);
  });

  it("in the trace of the workers' scenarios, the queue's refusals (STALE_FENCE) included", async () => {
    const dir = join(ROOT, 'scenarios', 'workers');
    const files = readdirSync(dir).filter((name) => name.endsWith('.yaml')).map((name) => rel(join(dir, name)));
    const { stdout, stderr } = await faultlab(['run', ...files, '--all', '--lang', 'zh']);
    expect(stdout).toContain('STALE_FENCE: w1 以令牌 1 对任务');
    expect(englishSentences(stdout + stderr)).toEqual([]);
  });

  it("in the grade of a learner's worker (the second exercise), its refusals and its rules' hints included", async () => {
    const workers = join(ROOT, 'test', 'fixtures', 'workers');
    for (const fixture of [join(workers, 'mistakes', 'completion-by-id'), join(workers, 'mistakes', 'token-compared-le'), join(workers, 'stub')]) {
      const { stdout, stderr } = await faultlab(['grade', rel(join(fixture, 'LearnerWorker.ts')), '--no-explore', '--hint', '3', '--lang', 'zh']);
      expect(stdout).toMatch(/9 个场景/);
      expect(englishSentences(stdout + stderr, allowedFor(join(fixture, 'LearnerWorker.ts'))), fixture).toEqual([]);
    }
  });

  it("in the explorer's report over the 17, and in its replay files", async () => {
    const out = tmp('zh-explore');
    const reference = await faultlab(['explore', '--lang', 'zh', '--workers', '1']);
    const learners = await faultlab(['explore', 'lost_reply', 'crash_after_commit', 'payload_conflict', '--runner', rel(mistake('new-key-per-attempt')), '--out', out, '--lang', 'zh', '--workers', '1']);
    expect(learners.exit).toBe(1);
    expect(englishSentences(reference.stdout + reference.stderr)).toEqual([]);
    expect(englishSentences(learners.stdout + learners.stderr, allowedFor(mistake('new-key-per-attempt')))).toEqual([]);
    const files = readdirSync(out).filter((name) => name.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      const doc = parse(readFileSync(join(out, name), 'utf8')) as { zh: { title: string; explain: string } };
      expect(englishSentences(`${doc.zh.title}\n${doc.zh.explain}`), name).toEqual([]);
      expect(doc.zh.explain, name).not.toMatch(/[）：，。；] | [（：，。；]/); // no space from YAML folding beside Chinese punctuation
    }
  });

  for (const file of FIXTURES) {
    it(`in the grade of ${rel(file)}, as written and explored, its replay files and its results.json`, async () => {
      const out = tmp('zh-grade');
      const json = join(out, 'results.json');
      const { stdout, stderr } = await faultlab(['grade', rel(file), '--replays', join(out, 'replays'), '--json', json, '--lang', 'zh']);
      expect(stdout).toMatch(/得分 \d+\/40/); // the graded set: the 17 and scenarios/graded, as written and explored
      const allowed = allowedFor(file);
      expect(englishSentences(stdout + stderr, allowed)).toEqual([]);
      const results = JSON.parse(readFileSync(json, 'utf8')) as ExercismResults;
      expect(englishSentences(results.tests.map((t) => t.message ?? '').join('\n'), allowed)).toEqual([]);
      let replays: string[] = [];
      try {
        replays = readdirSync(join(out, 'replays')).filter((name) => name.endsWith('.yaml'));
      } catch {
        // nothing broke a rule: no replay file
      }
      for (const name of replays) {
        const doc = parse(readFileSync(join(out, 'replays', name), 'utf8')) as { zh: { title: string; explain: string } };
        expect(englishSentences(`${doc.zh.title}\n${doc.zh.explain}`, allowed), name).toEqual([]);
      }
    });
  }
});
