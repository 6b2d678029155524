/**
 * A violation, written down as a scenario YAML file that `faultlab run` replays with the full trace. It is
 * the explored scenario with the minimal fault list in place of its own faults, and `expect: {}`: the
 * figures a broken run ends with are not ones to expect, and the invariants (and every fault firing) are
 * checked on every run anyway — so the replay fails exactly where the schedule did.
 *
 * Like every shipped scenario, it says what broke in English and again in Chinese in its `zh:` block,
 * whichever language the exploration ran in: `faultlab run --lang zh` shows the Chinese, `--json` keeps the
 * English title, and a file found by one reader reads right for the next.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { INVARIANTS } from '../check/invariants.js';
import type { RunResult } from '../check/RunResult.js';
import { checksOf } from '../check/verdict.js';
import { DEFAULT_DOCS } from '../core/defaults.js';
import { describeFaults, type FaultSpec } from '../faults/types.js';
import { SCENARIO_SCHEMA_PATH } from '../core/paths.js';
import { EXPLORED_TAG, type Scenario, type ScheduleChoice, type WorkersSpec } from '../scenario/types.js';
import { canonicalJson } from '../core/canonical.js';
import { describeChoices } from './schedule.js';
import { t, tn, type Lang } from '../render/words/index.js';
import { tighten } from '../render/format.js';
import type { Message, Said } from '../core/message.js';

// yaml is loaded on first use: an exploration that finds nothing never writes a file.
const require = createRequire(import.meta.url);

/** The check a replay file's schedule breaks: its title, and its message on the minimal run (worded in each language by the file). */
export interface Broke {
  title: Said;
  message: Said;
}

/**
 * What `check` — an invariant, or the grader's `crash_caught` — says on the minimal run. Without the run (a
 * learner's process that could not hand it over), the invariant's title and the one message known.
 */
export function brokeOn(run: RunResult | null, check: string, known: Said): Broke {
  const broken = run === null ? undefined : checksOf(run, 'rules').find((one) => one.id === check);
  return { title: broken?.title ?? INVARIANTS.find((inv) => inv.id === check)?.title ?? check, message: broken?.message ?? known };
}

export interface ReplaySpec {
  scenario: Scenario;
  faults: FaultSpec[];
  invariant: string;
  /** What the broken check says on the minimal run (brokeOn). */
  broke: Broke;
  /** Who broke it, for the file's header: `reference runner`, `mutant new_key_per_attempt`, … */
  who: Message;
  /** The command that found it (default `faultlab explore`; the grader writes replays too). */
  command?: 'faultlab explore' | 'faultlab grade';
  /** Prefix of the replay's id (a mutant's name), if any. */
  prefix?: string;
  /**
   * Many workers: the scheduler's choices to replay (`workers.schedule`), in place of the scenario's own — the
   * interleaving an exploration of the workers' choices found.
   */
  schedule?: ScheduleChoice[];
}

export function invariantShort(invariant: string): string {
  return invariant.split('_')[0]!;
}

export function replayId(spec: Pick<ReplaySpec, 'scenario' | 'invariant' | 'prefix'>): string {
  return [spec.prefix, spec.scenario.id, invariantShort(spec.invariant)].filter(Boolean).join('__');
}

/**
 * The replay file's text: its title and explanation in English and in its `zh:` block (whatever the language of
 * the command that wrote it), its comments in `lang`, the command's.
 */
export function replayYaml(lang: Lang, spec: ReplaySpec, file: string): string {
  const { Document, Scalar, isPair, isScalar } = require('yaml') as typeof import('yaml');
  const { scenario } = spec;
  const words = (lang: Lang) => ({
    title: t(lang, 'explore.replay.title', { id: scenario.id, title: spec.broke.title }),
    explain:
      spec.schedule !== undefined && spec.schedule.length > 0
        ? t(lang, 'explore.replay.explainSchedule', { command: spec.command ?? 'faultlab explore', who: spec.who, id: scenario.id, faults: describeFaults(spec.faults), choices: describeChoices(lang, spec.schedule), invariant: spec.invariant, message: spec.broke.message })
        : t(lang, 'explore.replay.explain', { command: spec.command ?? 'faultlab explore', who: spec.who, id: scenario.id, faults: describeFaults(spec.faults), invariant: spec.invariant, message: spec.broke.message, minimal: tn(lang, 'explore.replay.minimal', spec.faults.length) }),
  });
  // Chinese needs no space beside its punctuation; a folded YAML block keeps every space it is given.
  const zh = words('zh');
  const data = {
    id: replayId(spec),
    ...words('en'),
    tags: [EXPLORED_TAG],
    inventory: {
      items: scenario.inventory.items,
      ...(canonicalJson(scenario.inventory.docs) === canonicalJson(DEFAULT_DOCS) ? {} : { docs: scenario.inventory.docs }),
    },
    task: scenario.task,
    policy: { script: scenario.script.map((step) => (step.kind === 'finish' ? { finish: step.status } : { [step.name]: step.args })) },
    ...(scenario.workers !== undefined ? { workers: workersBlock(scenario.workers, spec.schedule) } : {}),
    faults: spec.faults.map((fault) => ({ kind: fault.kind, at: fault.at, ...(fault.qty !== undefined ? { qty: fault.qty } : {}), ...(fault.ms !== undefined ? { ms: fault.ms } : {}) })),
    expect: {},
    zh: { title: tighten(zh.title), explain: tighten(zh.explain) },
  };
  const doc = new Document(data);
  const flow = (path: Array<string | number>) => {
    const node = doc.getIn(path, true) as { flow?: boolean } | undefined;
    if (node) node.flow = true;
  };
  flow(['tags']);
  for (const item of Object.keys(scenario.inventory.items)) flow(['inventory', 'items', item]);
  flow(['task', 'items']);
  flow(['task', 'allow']);
  scenario.script.forEach((step, i) => step.kind === 'tool' && flow(['policy', 'script', i, step.name]));
  spec.faults.forEach((_, i) => flow(['faults', i, 'at']));
  (spec.schedule ?? scenario.workers?.schedule ?? []).forEach((_, i) => flow(['workers', 'schedule', i]));
  flow(['expect']);
  (doc.get('explain', true) as InstanceType<typeof Scalar>).type = Scalar.BLOCK_FOLDED;
  (doc.getIn(['zh', 'explain'], true) as InstanceType<typeof Scalar>).type = Scalar.BLOCK_FOLDED;
  const contents = doc.contents as { items: unknown[] };
  const comment = (key: string, text: string) => {
    const pair = contents.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === key);
    if (isPair(pair) && isScalar(pair.key)) {
      pair.key.commentBefore = text
        .split('\n')
        .map((line) => ` ${line}`)
        .join('\n');
    }
  };
  comment('expect', t(lang, 'explore.replay.comment'));
  comment('zh', t(lang, 'explore.replay.zhComment'));
  const schema = relative(dirname(file), SCENARIO_SCHEMA_PATH).split('\\').join('/');
  return `# yaml-language-server: $schema=${schema}\n${doc.toString({ lineWidth: 110, flowCollectionPadding: false })}`;
}

/** Write the replay into `dir` (created if need be); returns the file's path. */
export function writeReplay(lang: Lang, spec: ReplaySpec, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${replayId(spec)}.yaml`);
  writeFileSync(file, replayYaml(lang, spec, file));
  return file;
}

/** The command that replays a file, as a reader would type it from `cwd`. */
export function replayCommand(file: string, runnerFlags: string, cwd: string): string {
  const shown = relative(cwd, file);
  const path = shown.startsWith('..') ? file : shown;
  return `faultlab run ${path}${runnerFlags ? ` ${runnerFlags}` : ''}`;
}

/** A many-worker scenario's block as YAML writes it: every figure, and the schedule when there is one. */
function workersBlock(spec: WorkersSpec, schedule: ScheduleChoice[] | undefined): Record<string, unknown> {
  const choices = schedule ?? spec.schedule;
  return { count: spec.count, lease_ms: spec.lease_ms, sweep_every_ms: spec.sweep_every_ms, poll_ms: spec.poll_ms, ...(choices.length > 0 ? { schedule: choices } : {}) };
}
