/**
 * 每个命令的帮助：开头（用法行和说明，按打印时的缩进写好）和每个选项的说明。选项名（`--seed N`）留在
 * 代码里，由代码排到它那一栏（src/cli/options.ts: optionHelp）；选项说明中的 `\n` 另起一行，对齐说明栏。
 * 中文帮助每行不超过 80 列（一个汉字占两列），换行处是手工挑选的。
 */
export const help = {
  // ── 多个命令共用的选项 ──────────────────────────────────────────────────────────────────────────────
  'help.option.seed': '虚拟时钟和随机数的种子（默认 {seed}）；种子相同，\n轨迹就相同',
  'help.option.runner':
    'reference（默认）；learner，即\nsrc/runner/LearnerRunner.ts；mutant:NAME，故意写错的\nRunner 或存储（见 src/mutants/catalogue.ts）；或一个导出\nRunner 类的 .ts/.js 文件',
  'help.option.storage': '{storage}（默认：内存中的 SQLite，崩溃模型相同）或 file\n（一个临时文件夹）',
  'help.option.json': '在 stdout 上只输出一份 JSON 文档，别无其他',
  'help.option.noColor': '纯文本，不带颜色（设置 NO_COLOR=1，或 stdout 不是\n终端时，也是如此）',
  'help.option.width': '把轨迹折成 N 列宽（默认：终端的宽度；不是终端时\n为 {width}）',
  'help.option.html': '另外把每次运行写成 DIR 中一个独立的 HTML 网页，\n并附一个索引页',
  'help.option.lang': '消息的语言：zh（中文）或 en（英文）；默认随系统\n语言设置（zh* 即中文）',
  'help.option.db': 'sqlite（默认）、postgres（faultlab 自行启动\n并删除的内嵌服务器）或 URL\npostgres://USER@HOST:PORT/DATABASE（你自己的服务器）',

  // ── run ───────────────────────────────────────────────────────────────────────────────────────────
  'help.run.head':
    'faultlab run [SCENARIO…] [选项]\n' +
    '  运行场景（文件、文件夹或场景 id），显示每个场景的轨迹。不指定场景时：运行\n' +
    '  scenarios/ 中的 17 个场景，显示 {shown} 的轨迹，\n' +
    '  以及全部场景的汇总。',
  'help.run.all': '显示每一条轨迹（不指定场景时：全部 17 条）',
  'help.run.quiet': '只显示汇总',
  'help.run.keepDb':
    '把这次运行的 SQLite 数据库保留在 DIR 中以便查看（只能\n是一个 Runner 场景；同一个 DIR 同一时间只能有一次运行；\n用 --storage memory 时，结束时把数据库映像写进去）',

  // ── list ──────────────────────────────────────────────────────────────────────────────────────────
  'help.list.head': 'faultlab list [SCENARIO…] [--json] [--no-color]\n  每个场景一行：id、标题、故障、预期状态。',

  // ── grade ─────────────────────────────────────────────────────────────────────────────────────────
  'help.grade.head':
    'faultlab grade [FILE_OR_DIR…] [选项]\n' +
    '  给 Runner 文件评分（默认：src/runner/LearnerRunner.ts）：先按原样运行每个\n' +
    '  场景，再在每个场景的每个位置各加一个故障（与 faultlab explore 的深度 1\n' +
    '  相同）。每个场景给出 ✔/✘、哪里出了错、为什么、这次运行从哪里偏离了参考\n' +
    '  实现、回放它的命令和该读的课程；最后给出故障覆盖、得分（原样运行每个场景算\n' +
    '  一项，加故障探索每个场景再算一项）和一条提示。一个文件夹里，每个含\n' +
    '  LearnerRunner.ts 的子文件夹算一份提交（submissions/<名字>/LearnerRunner.ts），\n' +
    '  或者每个 .ts/.js 文件算一份；多份提交时，每评完一份就打印一行，最后是一张\n' +
    '  汇总表。',
  'help.grade.scenarios': '用这些场景文件（或 id）代替受评集合评分\n（那 17 个场景，再加 scenarios/graded）',
  'help.grade.heldOut': '把老师预留的检验场景加进评分\n（它们的故障在 results.json 中保持隐藏）',
  'help.grade.noExplore': '只按原样运行场景评分\n（得分就只按每个场景一项计算）',
  'help.grade.hint': '提示的级别：1（默认）、2 或 3，逐级更具体',
  'help.grade.summary': '多份提交时：只打印进度和最后的汇总表',
  'help.grade.json': 'Exercism 的 results.json（v3）；多份提交时每份一条，\n带名字和得分',
  'help.grade.junit': 'JUnit XML：每份提交一个 testsuite，\n每个场景的每个部分一个 testcase',
  'help.grade.resultsDir': 'Exercism 的目录布局：一份提交写 DIR/results.json，\n多份写 DIR/<名字>/results.json',
  'help.grade.replays': '探索中发现的失败，其回放文件放在这里\n（默认 {dir}/；全班评分时每人一个文件夹）',
  'help.grade.revealFaults': '在 results.json 中显示预留场景的故障\n（默认对学习者隐藏）',
  'help.grade.jobs': '同时评分的提交数（默认：每个处理器核心一份）',
  'help.grade.loadTimeout': '加载文件超过这么久就停止（默认 {ms}）',
  'help.grade.timeout': '一次运行超过这个时长就停止（默认 {ms}，最多 {max}）',

  // ── explore ───────────────────────────────────────────────────────────────────────────────────────
  'help.explore.head':
    'faultlab explore [SCENARIO…] [选项]\n' +
    '  对每个场景（默认：那 17 个），在故障目录允许的每个位置加入一个故障（深度 1）\n' +
    '  或两个故障（深度 2），每次运行后检查 docs/spec.md §7 的不变量，\n' +
    '  并把每处违例缩减到最小的故障安排，写成一个能用 `faultlab run` 回放的场景文件。\n' +
    '  多个工作进程的场景（docs/spec.md §11）还会在各种交错下运行，\n' +
    '  并在每个工作进程循环的每个位置让它的租约过期或让它暂停；\n' +
    '  同时检查 §12 的不变量。',
  'help.explore.depth': '每个故障安排最多加入几个故障（默认 1）',
  'help.explore.mutants': '让每个变异体（故意写错的 Runner 或存储）跑一遍\n这些场景和探索',
  'help.explore.out': '回放文件放在哪里（默认：当前文件夹下的\nfaultlab-explore/）',
  'help.explore.workers': '工作线程数（默认：每个 CPU 核一个）',
  'help.explore.preemptions': '多个工作进程：每次运行最多几次抢占（默认 {n}）——\n抢占是把轮次从还能动的工作进程手里拿走；\n每个添加的故障占用其中一次',

  // ── dlq ───────────────────────────────────────────────────────────────────────────────────────────
  'help.dlq.head':
    'faultlab dlq DIR [--replay ID] [选项]\n' +
    '  列出 `faultlab run SCENARIO --keep-db DIR` 保留在 DIR 中的死信，每条一行\n' +
    '  （场景须带 durability.dlq 块，且运行以 retry_exhausted 或 budget_exhausted\n' +
    '  结束、仍有一个待定动作）。加 --replay 时，用一个全新的 Runner、以同一个键，\n' +
    '  对 DIR 中的数据库执行这条记录的意图，并在整份日志（含这次回放）上检查\n' +
    '  不变量。',
  'help.dlq.replay': '回放这条待定记录（例如 dlq-000001）',
} as const;
