/**
 * The lesson checker itself: it must read the convention right, and above all it must go red when a
 * lesson drifts from the code — a check that cannot fail is no check.
 */
import { describe, expect, it } from 'vitest';
import { failedClaims, missingInOrder, runFaultlab, shellWords, toArgv, unwrapped } from './lessonCommand.js';
import { parseLesson, slugify } from './lessonDoc.js';

const lesson = (...lines: string[]) => parseLesson(lines.join('\n'));
const FENCE = '```';

describe('reading a lesson', () => {
  it('takes one command per sh block and the claims right under it', () => {
    const doc = lesson(
      '## Try it',
      `${FENCE}sh`,
      'npx faultlab run lost_reply',
      FENCE,
      '<!-- expect exit: 0 -->',
      '<!-- expect output: "ledger hit: same key, same fingerprint → original receipt" -->',
      '<!-- expect no output: "BROKEN" -->',
    );
    expect(doc.problems).toEqual([]);
    expect(doc.commands).toEqual([
      {
        command: 'npx faultlab run lost_reply',
        line: 3,
        section: 'Try it',
        claims: [
          { kind: 'exit', code: 0, line: 5 },
          { kind: 'output', text: 'ledger hit: same key, same fingerprint → original receipt', line: 6 },
          { kind: 'no-output', text: 'BROKEN', line: 7 },
        ],
      },
    ]);
  });

  it('reads a block that needs a faultlab command another branch brings (its claims kept for the day it lands)', () => {
    const doc = lesson(`${FENCE}sh`, 'npx faultlab torture --kills 30', FENCE, '<!-- expect needs: torture -->', '<!-- expect exit: 0 -->');
    expect(doc.problems).toEqual([]);
    expect(doc.commands[0]!.claims).toEqual([
      { kind: 'needs', command: 'torture', line: 4 },
      { kind: 'exit', code: 0, line: 5 },
    ]);
  });

  it('keeps quotes inside a claim (the claim runs to the last quote)', () => {
    const doc = lesson(`${FENCE}sh`, 'faultlab run unknown_item', FENCE, '<!-- expect output: "UNKNOWN_ITEM: no item "drone" in stock" -->');
    expect(doc.commands[0]!.claims).toEqual([{ kind: 'output', text: 'UNKNOWN_ITEM: no item "drone" in stock', line: 4 }]);
  });

  it('refuses a claim separated from its command by a blank line', () => {
    const doc = lesson(`${FENCE}sh`, 'faultlab list', FENCE, '', '<!-- expect exit: 0 -->');
    expect(doc.problems).toEqual(['line 5: a claim must follow a ```sh block at once (no blank line between): <!-- expect exit: 0 -->']);
    expect(doc.commands[0]!.claims).toEqual([]);
  });

  it('refuses an unknown claim, an empty claim and two commands in one block', () => {
    const doc = lesson(`${FENCE}sh`, 'faultlab list', 'faultlab run', FENCE, `${FENCE}sh`, 'faultlab list', FENCE, '<!-- expect stdout: "x" -->', '<!-- expect output: "" -->');
    expect(doc.problems).toEqual([
      'line 1: a ```sh block must hold exactly one command (it holds 2)',
      'line 8: unknown claim "expect stdout: "x"" — use exit: N, output: "…", no output: "…" or needs: COMMAND',
      'line 9: an empty output claim proves nothing',
    ]);
  });

  it('refuses a zh-todo wherever it stands: a claim nobody checks is a defect, and the output is Chinese now', () => {
    const doc = lesson(
      `${FENCE}sh`,
      'npx faultlab run lost_reply --lang zh',
      FENCE,
      '<!-- expect exit: 0 -->',
      '<!-- zh-todo: 账本命中：同一个键 -->',
      '<!-- expect output: "res_3192e4" -->',
      '',
      '<!--zh-todo nothing above -->',
    );
    // The claims around it still count; the todo itself is not taken for one.
    expect(doc.commands[0]!.claims).toEqual([
      { kind: 'exit', code: 0, line: 4 },
      { kind: 'output', text: 'res_3192e4', line: 6 },
    ]);
    expect(doc.problems).toEqual([
      'line 5: a zh-todo is a claim nobody checks — quote the line the program prints as <!-- expect output: "…" --> (the output is in Chinese now): <!-- zh-todo: 账本命中：同一个键 -->',
      'line 8: a zh-todo is a claim nobody checks — quote the line the program prints as <!-- expect output: "…" --> (the output is in Chinese now): <!--zh-todo nothing above -->',
    ]);
  });

  it('refuses commands in bash or console blocks, which would never be run', () => {
    const doc = lesson(`${FENCE}bash`, 'faultlab run', FENCE);
    expect(doc.problems).toEqual(['line 1: a ```bash block is never run — write commands in ```sh blocks so the lesson test checks them']);
  });

  it('reads an excerpt of a command or a file, dropping blank lines and elisions', () => {
    const doc = lesson(
      '<!-- excerpt of: faultlab run lost_reply -->',
      `${FENCE}text`,
      '   4  13  transient:lost_reply      4  reserve stays pending · attempt 1 of 3',
      '…',
      '',
      '  ledger hit: same key',
      FENCE,
      '<!-- excerpt of file: src/inventory/keys.ts -->',
      `${FENCE}ts`,
      'export function fingerprint(args: Record<string, unknown>): string {',
      FENCE,
    );
    expect(doc.problems).toEqual([]);
    expect(doc.excerpts).toEqual([
      {
        source: { kind: 'command', command: 'faultlab run lost_reply' },
        line: 2,
        lines: [
          { text: '4  13  transient:lost_reply      4  reserve stays pending · attempt 1 of 3', line: 3 },
          { text: 'ledger hit: same key', line: 6 },
        ],
      },
      { source: { kind: 'file', path: 'src/inventory/keys.ts' }, line: 9, lines: [{ text: 'export function fingerprint(args: Record<string, unknown>): string {', line: 10 }] },
    ]);
  });

  it('refuses an excerpt comment that is not right above its block', () => {
    const doc = lesson('<!-- excerpt of: faultlab list -->', '', `${FENCE}text`, 'x', FENCE);
    expect(doc.problems).toEqual(['line 1: an excerpt comment must be followed at once by its fenced block']);
  });

  it('refuses a fence never closed and an excerpt comment at the very end', () => {
    expect(lesson(`${FENCE}sh`, 'faultlab list').problems).toEqual(['line 1: a fenced block is never closed']);
    expect(lesson('text', '<!-- excerpt of: faultlab list -->').problems).toEqual(['line 2: an excerpt comment must be followed at once by its fenced block']);
  });

  it('collects links outside code, and heading anchors as GitHub makes them', () => {
    const doc = lesson(
      '# Lesson',
      'See [lesson 2](02-idempotency-keys.md#the-key-is-made-once) and `[not](a-link.md)` and [web](https://example.org).',
      '## Don’t / Do / Why',
      '## Why `retry_after_version_moved` succeeds',
      '## Try it',
      '## Try it',
    );
    expect(doc.links.map((l) => l.target)).toEqual(['02-idempotency-keys.md#the-key-is-made-once', 'https://example.org']);
    expect(doc.headings.map((h) => h.slug)).toEqual(['lesson', 'dont--do--why', 'why-retry_after_version_moved-succeeds', 'try-it', 'try-it-1']);
    expect(slugify('5. Calls 5, ledger 1, stock 2')).toBe('5-calls-5-ledger-1-stock-2');
  });
});

describe('which commands a lesson may show', () => {
  it.each([
    ['npx faultlab run scenarios/lost_reply.yaml', ['run', 'scenarios/lost_reply.yaml']],
    ['faultlab run lost_reply --seed 7', ['run', 'lost_reply', '--seed', '7']],
    ['node bin/faultlab.js list', ['list']],
    ['node bin/faultlab.cjs list', ['list']],
    ['npm start', ['run']],
    ['npm start -- --quiet', ['run', '--quiet']],
    ['npm run grade', ['grade']],
    ['npm run grade -- --hint 2', ['grade', '--hint', '2']],
    ["npx faultlab run 'lost_reply'", ['run', 'lost_reply']],
  ])('%s runs faultlab %j', (command, argv) => {
    expect(toArgv(command)).toEqual({ ok: true, argv });
  });

  it.each([
    ['cat scenarios/lost_reply.yaml', 'not a faultlab command'],
    ['npx faultlab run | less', 'the shell character "|" is not allowed'],
    ['npx faultlab run lost_reply && rm -rf dist', 'the shell character "&" is not allowed'],
    ['npx faultlab run scenarios/*.yaml', 'the shell character "*" is not allowed'],
    ['npm test', 'not a faultlab command'],
    ['npm run build', 'npm script "build" does not run faultlab'],
    ['npx faultlab run "$HOME"', 'shell expansion ($) is not allowed'],
  ])('%s is refused', (command, reason) => {
    const parsed = toArgv(command);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toContain(reason);
  });

  it('splits words like a shell for quotes and escapes', () => {
    expect(shellWords(`a "b c" 'd e' f\\ g`)).toEqual({ ok: true, words: ['a', 'b c', 'd e', 'f g'] });
  });
});

describe('checking claims against the real output', () => {
  it('holds for a true claim and goes red when a claim drifts', async () => {
    const outcome = await runFaultlab(['run', 'lost_reply']);
    expect(outcome.exit).toBe(0);
    const line = 'PASS lost_reply: succeeded · calls 5 · ledger 1 · stock camera 2';
    expect(failedClaims([{ kind: 'exit', code: 0, line: 1 }, { kind: 'output', text: line, line: 2 }], outcome)).toEqual([]);

    const drifted = failedClaims(
      [
        { kind: 'exit', code: 1, line: 1 },
        { kind: 'output', text: 'PASS lost_reply: succeeded · calls 4 · ledger 1 · stock camera 2', line: 2 },
        { kind: 'no-output', text: 'ledger hit', line: 3 },
      ],
      outcome,
    );
    expect(drifted).toHaveLength(3);
    expect(drifted[0]).toBe('line 1: expected exit 1, got 0');
    expect(drifted[1]).toContain('line 2: the output does not contain "PASS lost_reply: succeeded · calls 4 · ledger 1 · stock camera 2"');
    expect(drifted[1]).toContain(`closest line in the output: "${line}"`);
    expect(drifted[2]).toBe('line 3: the output contains "ledger hit", which the lesson says it does not');
  });

  it('reads Chinese output as a sentence whatever width cut it: no space at a break between CJK characters or beside Chinese punctuation', () => {
    // As the trace wraps a ledger line at 80 columns, and as the lesson quotes it.
    const wrapped = '  账本 +1\n    （res_3192e4）；Runner 无从\n    得知 · ×1，\n    available_after 2';
    expect(unwrapped(wrapped)).toBe(unwrapped('账本 +1（res_3192e4）；Runner 无从得知 · ×1，available_after 2'));
    // A real space between a Chinese word and a figure stays: `调用 4` is not `调用4`.
    expect(unwrapped('调用\n  4')).toBe('调用 4');
    expect(unwrapped('调用 4')).not.toBe(unwrapped('调用4'));
  });

  it('runs a command in Chinese when it says --lang zh, and the next one in English again', async () => {
    const zh = await runFaultlab(['run', 'lost_reply', '--quiet', '--lang', 'zh']);
    expect(zh.exit).toBe(0);
    expect(failedClaims([{ kind: 'output', text: '5 lost_reply succeeded 5 1 camera 2 ✔ 通过', line: 1 }], zh)).toEqual([]);
    const en = await runFaultlab(['run', 'lost_reply', '--quiet']);
    expect(en.output).not.toContain('通过');
  });

  it('prints with colour off, so a claim never has to match escape codes', async () => {
    const outcome = await runFaultlab(['run', 'happy_path']);
    expect(outcome.output).not.toMatch(/\u001b\[/);
  });

  it('reports a bad command as exit 2 with the reason, not as a crash of the test', async () => {
    const outcome = await runFaultlab(['run', 'no_such_scenario']);
    expect(outcome.exit).toBe(2);
    expect(outcome.output).toContain('no such file, folder or scenario id');
  });

  it('finds excerpt lines only in order', () => {
    const text = 'first\nsecond\nthird\n';
    expect(missingInOrder([{ text: 'first', line: 1 }, { text: 'third', line: 2 }], text)).toBeNull();
    expect(missingInOrder([{ text: 'third', line: 1 }, { text: 'first', line: 2 }], text)).toEqual({ text: 'first', line: 2 });
  });
});
