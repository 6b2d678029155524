/**
 * The README's teacher example is a real test: it is taken from README.md as written, run by vitest in a
 * child process with `import … from 'faultlab'` resolving to this very package (its `exports`, so `npm run
 * build` first), and it must pass for a correct learner and fail, with the grader's explanation, for a broken
 * one. The README's excerpt of the grader's output must still be what the grader prints.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { faultlab, ROOT } from '../grade/helpers.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The README section under a `## heading`, up to the next one. */
function section(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  expect(start, `README.md has no "## ${heading}"`).toBeGreaterThan(-1);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

function fenced(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```', 'gm'))].map((m) => m[1]!);
}

// Written inside the repository (so that 'faultlab' resolves to it) under a name the suite never collects.
const generated = join(ROOT, 'test', 'classroom', `readme-example.${process.pid}.generated.ts`);
const configDir = mkdtempSync(join(tmpdir(), 'faultlab-readme-'));
const config = join(configDir, 'vitest.config.mjs');
afterAll(() => {
  rmSync(generated, { force: true });
  rmSync(configDir, { recursive: true, force: true });
});

function runExample(submission: string): { status: number | null; output: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', config], {
    cwd: ROOT,
    env: { ...env, SUBMISSION: submission, NO_COLOR: '1', FORCE_COLOR: '0' },
    encoding: 'utf8',
  });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe('the README’s classroom example', () => {
  const [example] = fenced(section('Classroom assertions (for teachers)'), 'ts');

  it('imports from the package by its name, as a teacher’s test would', async () => {
    expect(example).toContain("import { expectRun, runScenario } from 'faultlab';");
    expect(example).toContain("expectRun(run).toEndWith('succeeded').toHaveCalls(5).toHaveLedgerRows(1).toHaveStock('camera', 2).toHoldInvariants();");
  });

  it('passes for a correct learner and fails for a broken one with the grader’s explanation', async () => {
    writeFileSync(generated, example!);
    writeFileSync(config, `export default { test: { root: ${JSON.stringify(ROOT)}, include: [${JSON.stringify(relative(ROOT, generated))}] } };\n`);

    const correct = runExample('test/fixtures/learners/Correct.ts');
    expect(correct.output).toMatch(/Tests\s+2 passed \(2\)/);
    expect(correct.status).toBe(0);

    const broken = runExample('test/fixtures/learners/NewKeyPerAttempt.ts');
    expect(broken.status).toBe(1);
    expect(broken.output).toMatch(/Tests\s+1 failed \| 1 passed \(2\)/);
    expect(broken.output).toContain('lost_reply (LearnerRunner): expected the run to end with succeeded, but it ended with tool_error');
    expect(broken.output).toContain('replay: npx faultlab run scenarios/lost_reply.yaml --runner test/fixtures/learners/NewKeyPerAttempt.ts');
  });
});

describe('the README’s grading section', () => {
  it('quotes the grader as it really prints', async () => {
    const text = section("Grading a learner's runner");
    const command = 'faultlab grade test/fixtures/learners/NewKeyPerAttempt.ts --scenarios happy_path --scenarios lost_reply';
    const marker = `<!-- excerpt of: ${command} -->\n\`\`\`text\n`;
    const at = text.indexOf(marker);
    expect(at, 'the excerpt and its comment').toBeGreaterThan(-1);
    const lines = text.slice(at + marker.length, text.indexOf('\n```', at + marker.length)).split('\n').map((l) => l.trim());
    const { stdout } = await faultlab(command.split(' ').slice(1));
    let from = 0;
    for (const line of lines) {
      const found = stdout.indexOf(line, from);
      expect(found, `README line not in the output (in this order): ${line}`).toBeGreaterThan(-1);
      from = found + line.length;
    }
  });

  it('shows the commands it documents', async () => {
    const [commands] = fenced(section("Grading a learner's runner"), 'sh');
    expect(commands).toContain('npm run grade ');
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.grade).toBe('node bin/faultlab.cjs grade');
  });
});
