/**
 * The command line in Chinese: the usage, every command's help, every refusal of bad input — a scenario
 * file, an option, a path, a runner file — and the notes `run` and `dlq` print, said in Chinese with
 * `--lang zh` or a Chinese locale. What a learner types or reads as data stays as it is: the
 * `file:line:col: field:` of a scenario problem, option names, ids, statuses, and every exit code.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { said, t, word } from '../../src/render/words/index.js';
import { isDurabilityError } from '../../src/durability/errors.js';
import { SCENARIOS_DIR } from '../../src/core/paths.js';
import { applyConfigOverrides } from '../../src/durability/config/load.js';
import { defaultDurabilityConfig } from '../../src/durability/config/defaults.js';
import { describeRule } from '../../src/durability/config/fields.js';
import { ConfigError } from '../../src/durability/errors.js';
import { fromConfigError } from '../../src/labs/ScenarioInputError.js';
import { displayWidth } from '../../src/render/format.js';
import { cli } from '../support.js';

const dir = mkdtempSync(join(tmpdir(), 'faultlab-lang-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const HAPPY = readFileSync(join(SCENARIOS_DIR, 'happy_path.yaml'), 'utf8');
const COMMANDS = ['run', 'list', 'grade', 'explore', 'dlq', 'torture'];
const widest = (text: string) => Math.max(...text.split('\n').map(displayWidth));

describe('the help, in Chinese', () => {
  it('gives the usage of every command in Chinese, within 80 columns, with the same exit codes', async () => {
    const zh = await cli(['help', '--lang', 'zh']);
    expect(zh.code).toBe(0);
    expect(zh.stdout).toContain('faultlab —— 一个确定性的模拟器，专门重现那些让重试变得危险的故障');
    expect(zh.stdout).toContain('退出码：0 所有检查都通过 · 1 有检查失败 · 2 输入有误');
    expect(zh.stdout).toContain('faultlab run [SCENARIO…] [选项]');
    expect(widest(zh.stdout)).toBeLessThanOrEqual(80);
    const none = await cli([], { env: { LANG: 'zh_CN.UTF-8' } });
    expect([none.code, none.stderr]).toEqual([2, zh.stdout]);
  });

  it.each(COMMANDS)('says what `%s --help` does in Chinese, names --lang, and fits 80 columns', async (command) => {
    const zh = await cli([command, '--help', '--lang', 'zh']);
    const en = await cli([command, '--help']);
    expect(zh.code).toBe(0);
    expect(zh.stdout).toMatch(/[\u4e00-\u9fff]/);
    expect(widest(zh.stdout)).toBeLessThanOrEqual(80);
    expect(zh.stdout).toContain('    --lang zh|en      消息的语言：zh（中文）或 en（英文）；默认随系统\n                      语言设置（zh* 即中文）');
    expect(en.stdout).toContain('    --lang zh|en      the language of the messages: zh (Chinese) or en (English); default: the locale, zh* is Chinese');
    // The same options in the same order: only their words changed.
    const flags = (text: string) => text.match(/^ {4}--?[a-z-]+/gm);
    expect(flags(zh.stdout)).toEqual(flags(en.stdout));
  });

  it('lays an option out under its column in Chinese too: each further line starts at column 23', async () => {
    const { stdout } = await cli(['run', '--help', '--lang', 'zh']);
    const lines = stdout.split('\n');
    const at = lines.findIndex((line) => line.startsWith('    --keep-db DIR     把这次运行的 SQLite 数据库保留在 DIR 中以便查看'));
    expect(lines.slice(at + 1, at + 3)).toEqual([
      `${' '.repeat(22)}是一个 Runner 场景；同一个 DIR 同一时间只能有一次运行；`,
      `${' '.repeat(22)}用 --storage memory 时，结束时把数据库映像写进去）`,
    ]);
  });
});

describe('a malformed scenario, in Chinese', () => {
  const text = HAPPY.replace('camera: { available: 3, version: 0 }', 'camera: { available: -1, version: 0 }')
    .replace('  max_calls: 8', '  max_call: 8')
    .replace('status: succeeded', 'status: ok');
  const bad = () => file('bad.yaml', text);
  const where = (line: string) => line.split(': ').slice(0, 2).join(': ');

  it('keeps file:line:col and the field path, and says what is wrong in Chinese, with exit 2', async () => {
    const path = bad();
    const zh = await cli(['run', path, '--lang', 'zh']);
    const en = await cli(['run', path]);
    expect([zh.code, zh.stdout]).toEqual([2, '']);
    const [zhLines, enLines] = [zh.stderr.trimEnd().split('\n'), en.stderr.trimEnd().split('\n')];
    expect(zhLines.slice(0, -1).map(where)).toEqual(enLines.slice(0, -1).map(where));
    expect(zhLines.slice(0, -1).map((line) => line.slice(where(line).length + 2))).toEqual([
      '必须是 0 到 1,000,000 之间的整数（得到的是 -1）',
      '未知字段——你是想写 max_calls 吗？',
      '只能是 "succeeded", "gave_up", "retry_exhausted", "tool_error", "policy_error", "budget_exhausted" 之一（得到的是 "ok"）',
    ]);
    expect(zhLines.at(-1)).toBe('faultlab: 场景文件中共有 3 处问题；没有运行任何场景');
  });

  it('says in Chinese what a schema cannot: a reference to a step that never ran', async () => {
    const path = file('refs.yaml', HAPPY.replace('"@get_stock.version"', '"@get_stok.version"'));
    const zh = await cli(['run', path, '--lang', 'zh']);
    expect(zh.stderr).toContain(
      ': policy.script[3].reserve.expected_version: @get_stok.version 引用了 get_stok，但前面没有哪一步调用它（前面调用过的：search_docs, read_doc, get_stock）',
    );
  });

  it('says what a YAML syntax error means in Chinese, keeping yaml\'s own words beside it', async () => {
    const path = file('dup.yaml', HAPPY.replace('title:', 'id: again\ntitle:'));
    const zh = await cli(['run', path, '--lang', 'zh']);
    expect(zh.stderr.split('\n')[0]).toMatch(/dup\.yaml:4:1: YAML 语法错误：同一个映射里有重复的键（Map keys must be unique）$/);
    expect((await cli(['run', path])).stderr.split('\n')[0]).toMatch(/dup\.yaml:4:1: YAML syntax: Map keys must be unique$/);
  });

  it('says Ajv\'s own words in Chinese too, and leaves them as Ajv wrote them in English', async () => {
    const text = HAPPY.replace('tags: [chapter]', 'tags: [chapter, chapter]').replace(/^title: .*$/m, "title: ''");
    const path = file('ajv.yaml', text);
    const message = (stderr: string) => stderr.split('\n').slice(0, 2).map((line) => line.split(': ').slice(2).join(': '));
    expect(message((await cli(['run', path])).stderr)).toEqual(['must NOT have fewer than 1 characters', 'must NOT have duplicate items (items ## 1 and 0 are identical)']);
    expect(message((await cli(['run', path, '--lang', 'zh'])).stderr)).toEqual(['至少要有 1 个字符', '不能有重复项（第 1 项和第 0 项相同，从 0 数起）']);
  });

  it('speaks Chinese under a Chinese locale too, and English when the flag says so', async () => {
    const path = bad();
    const locale = await cli(['run', path], { env: { LANG: 'zh_CN.UTF-8' } });
    const flag = await cli(['run', path, '--lang', 'zh']);
    expect(locale.stderr).toBe(flag.stderr);
    const en = await cli(['run', path, '--lang', 'en'], { env: { LANG: 'zh_CN.UTF-8' } });
    expect(en.stderr).toContain('faultlab: 3 problem(s) in the scenario files; nothing was run');
  });
});

describe('bad options, paths and runner files, in Chinese', () => {
  it('says what is wrong with an option, then the command\'s help in Chinese, exit 2', async () => {
    const seed = await cli(['run', '--seed', 'x', '--lang', 'zh']);
    expect(seed.code).toBe(2);
    expect(seed.stderr.startsWith('faultlab run: --seed 必须是整数，得到的是 "x"\n\nfaultlab run [SCENARIO…] [选项]\n')).toBe(true);
    const unknown = await cli(['run', '--sede', '3', '--lang', 'zh']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe("faultlab run: 没有 '--sede' 这个选项。如果这是一个以 '-' 开头的位置参数，请把它放在命令末尾的 '--' 之后，例如 '-- \"--sede\"'");
    expect((await cli(['run', '--seed', '--lang', 'zh'])).stderr.split('\n')[0]).toBe("faultlab run: 选项 '--seed' 后面缺少取值");
    expect((await cli(['run', '--json=yes', '--lang', 'zh'])).stderr.split('\n')[0]).toBe("faultlab run: 选项 '--json' 不接受取值");
    const command = await cli(['fly', '--lang', 'zh']);
    expect([command.code, command.stderr.split('\n')[0]]).toEqual([2, 'faultlab: 没有 "fly" 这个命令']);
  });

  it('says in Chinese that --runner nowhere.ts names no file, and which runners there are', async () => {
    const out = await cli(['run', 'happy_path', '--runner', 'nowhere.ts', '--lang', 'zh']);
    expect([out.code, out.stdout]).toEqual([2, '']);
    expect(out.stderr).toBe(
      `faultlab run: --runner nowhere.ts：没有这个文件：${join(process.cwd(), 'nowhere.ts')}（可用 reference、learner、mutant:NAME，或导出 Runner 类的 .ts/.js 文件的路径）\n`,
    );
  });

  it('refuses a --keep-db at a file and a lab under --runner, in Chinese', async () => {
    const aFile = file('a-file', 'x');
    expect((await cli(['run', 'lost_reply', '--keep-db', aFile, '--lang', 'zh'])).stderr).toBe(`faultlab run: --keep-db ${aFile}：这是一个文件，不是文件夹（请给一个新的或空的文件夹）\n`);
    const lab = await cli(['run', 'backoff_schedule', '--runner', 'learner', '--lang', 'zh']);
    expect([lab.code, lab.stderr.split('：')[0]]).toEqual([2, 'faultlab run: --runner learner 不能用于实验']);
  });

  it('ends every bad input with the same exit code in both languages', async () => {
    const cases = [
      ['run', '--width', '5'],
      ['run', 'no_such_id'],
      ['run', 'happy_path', '--runner', 'mutant:nope'],
      ['explore', '--depth', '3'],
      ['grade', '--hint', '9'],
      ['dlq'],
      ['dlq', dir],
      ['list', '--bogus'],
    ];
    for (const argv of cases) {
      const [en, zh] = [await cli(argv), await cli([...argv, '--lang', 'zh'])];
      expect([argv, zh.code], zh.stderr).toEqual([argv, en.code]);
      expect(zh.code).toBe(2);
      expect(zh.stderr, argv.join(' ')).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('says a durability value out of range in Chinese, naming the field as written', () => {
    const bad = { retry: { policies: { mcp_call: { max_attempts: 0 } } } };
    const message = (lang: 'en' | 'zh') => {
      try {
        applyConfigOverrides(defaultDurabilityConfig(), bad);
      } catch (error) {
        return isDurabilityError(error) && error.said !== undefined ? word(lang, error.said) : (error as Error).message;
      }
      return 'accepted';
    };
    expect(message('en')).toBe('retry.policies.mcp_call.max_attempts must be an integer >= 1, got 0');
    expect(message('zh')).toBe('retry.policies.mcp_call.max_attempts 必须是不小于 1 的整数，得到的是 0');
    // A lab shows the message at the field's line, without the field: it starts with the field in Chinese too.
    const atField = fromConfigError(new ConfigError('runs.2.max_delay_ms', describeRule({ integer: true, min: 500 }), 100));
    expect([atField.path, said('zh', atField.said)]).toEqual([['runs', 2, 'max_delay_ms'], '必须是不小于 500 的整数，得到的是 100']);
  });
});

describe('what run, list and dlq print around the traces, in Chinese', () => {
  it('sums up a run in Chinese, suggests commands that keep the language, and prints the same bytes every time', async () => {
    const first = await cli(['run', '--quiet', '--lang', 'zh']);
    const again = await cli(['run', '--quiet', '--lang', 'zh']);
    expect(first.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(first.stdout).toContain('17 个通过，0 个失败（种子 42，reference Runner）');
    expect(first.stdout).toContain('npm run grade -- --lang zh（练习）');
    const demo = await cli(['run', '--lang', 'zh']);
    expect(demo.stdout.replace(/\s+/g, ' ')).toContain('更多：其余 15 条轨迹用 npx faultlab run --all --lang zh 查看');
  });

  it('heads the list in Chinese and lines its columns up by display width', async () => {
    const { stdout } = await cli(['list', '--lang', 'zh', '--no-color']);
    const [head, first] = stdout.split('\n');
    expect(head).toMatch(/^ {2}# {2}id +标题 +故障 +预期状态$/);
    // 标题 is two characters four columns wide: the titles (Chinese too) start where it does, in columns.
    expect(displayWidth(head!.slice(0, head!.indexOf('标题')))).toBe(displayWidth(first!.slice(0, first!.indexOf('顺利路径'))));
  });

  it('keeps the JSON of list the same document in both languages', async () => {
    expect((await cli(['list', '--json', '--lang', 'zh'])).stdout).toBe((await cli(['list', '--json'])).stdout);
  });

  it('says in Chinese that a folder holds no kept run', async () => {
    const out = await cli(['dlq', dir, '--lang', 'zh']);
    expect(out.code).toBe(2);
    expect(out.stderr.split('\n')[0]).toBe(`faultlab dlq: ${dir} 中没有 events.db（要保留一次运行的数据库，请用：faultlab run SCENARIO --keep-db ${dir}）`);
  });

  it('has the one message a catalogue key names in each language, and English as it was', () => {
    expect(t('en', 'scenario.summary', { count: 2 })).toBe('2 problem(s) in the scenario files; nothing was run');
    expect(t('zh', 'scenario.summary', { count: 2 })).toBe('场景文件中共有 2 处问题；没有运行任何场景');
  });
});

describe('the process, in Chinese', () => {
  /** The built CLI as a user runs it (npm test builds it first). */
  const bin = (args: string[], env: Record<string, string> = {}) => spawnSync(process.execPath, ['bin/faultlab.js', ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });

  it('says in Chinese that no temporary folder can be made', () => {
    const out = bin(['run', 'happy_path', '--storage', 'file', '--lang', 'zh'], { TMPDIR: join(dir, 'no-such-tmp') });
    expect(out.status).toBe(2);
    expect(out.stderr).toBe(`faultlab run: 无法在 ${join(dir, 'no-such-tmp')}（系统的临时文件夹；可设置 TMPDIR 更换）中创建临时文件夹：ENOENT\n`);
  });

  it('says in Chinese, after the command, that stdout could not be written', () => {
    const out = spawnSync('bash', ['-c', 'node bin/faultlab.js list --lang zh > /dev/full'], { encoding: 'utf8' });
    expect(out.status).toBe(2);
    expect(out.stderr).toBe('faultlab list: 无法写入 stdout：ENOSPC（设备上没有剩余空间）\n');
  });
});
