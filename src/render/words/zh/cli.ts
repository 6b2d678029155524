/**
 * 命令行自身的话：用法、对选项、路径和 Runner 文件的拒绝、run / list / dlq 在轨迹前后打印的说明，
 * 以及进程如何说明自己被中止。前缀 `faultlab 命令: ` 和选项名留在代码里，这里只有句子。
 */
export const cli = {
  'cli.lang.bad': '--lang 只能是 {langs} 之一，得到的是 {given}',
  'cli.and': ' 和 ',
  'cli.listSep': '、',

  // ── main.ts：用法、进程 ─────────────────────────────────────────────────────────────────────────────
  'cli.usage.title': 'faultlab —— 一个确定性的模拟器，专门重现那些让重试变得危险的故障',
  'cli.usage.exitCodes':
    '退出码：0 所有检查都通过 · 1 有检查失败 · 2 输入有误（场景无法读取或不合法、\n' +
    '选项有误、路径或 Runner 文件不可用）· 70 faultlab 自身的缺陷（设置\n' +
    'FAULTLAB_DEBUG=1 可看到出错位置）· 130/143 被 SIGINT/SIGTERM 中止。',
  'cli.usage.language': '语言：每个命令都可加 --lang zh|en（默认随系统语言设置：LC_ALL、LC_MESSAGES、\nLANG；zh* 即中文）。',
  'cli.usage.lessons': '课程：lessons/zh/ · 练习：src/runner/LearnerRunner.ts',
  'cli.unknownCommand': '没有 {name} 这个命令',
  'cli.stopped': '已被 {signal} 中止；临时文件已删除',

  // ── errors.ts：每种失败如何报告 ─────────────────────────────────────────────────────────────────────
  'cli.error.cannotUse': '无法使用 {path}：{code}',
  'cli.error.internal': '内部错误：{what}\n  这是 faultlab 自身的缺陷，不是你的输入有误——{next}',
  'cli.error.stackFollows': '调用栈如下',
  'cli.error.runAgain': '设置 {variable}=1 再运行一次，可以看到出错的位置',
  'cli.error.cannotWrite': '无法写入 {stream}：{errno}',
  'cli.error.cannotWriteFull': '无法写入 {stream}：{errno}（设备上没有剩余空间）',
  'cli.args.unknownOption': "没有 '{option}' 这个选项。如果这是一个以 '-' 开头的位置参数，请把它放在命令末尾的 '--' 之后，例如 '-- \"{option}\"'",
  'cli.args.missingValue': "选项 '{option}' 后面缺少取值",
  'cli.args.takesNoValue': "选项 '{option}' 不接受取值",

  // ── options.ts ────────────────────────────────────────────────────────────────────────────────────
  'cli.seed.bad': '--seed 必须是整数，得到的是 {given}',
  'cli.storage.bad': '--storage 只能是 memory 或 file，得到的是 {given}',
  'cli.width.bad': '--width 必须是 {min} 到 {max} 之间的整数，得到的是 {given}',
  'cli.db.bad': '--db 只能是 sqlite、postgres 或 URL postgres://USER@HOST:PORT/DATABASE，得到的是 {given}',
  'cli.db.badUrl': '--db {given} 不是 faultlab 能连接的 URL：{problem}',
  'cli.db.unparsable': '无法解析为 URL',
  'cli.db.noHost': '没有指明服务器（请给出主机名，或以 ?host=/路径 给出 unix 套接字所在的文件夹）',
  'cli.db.sqliteOnly': '--db {given} 让每个场景在 PostgreSQL 上各用一个自己的 schema 运行：{option} 只适用于 SQLite',
  'cli.db.scenarioNotYet': '--db {given}：{id} 目前只能在 SQLite 上运行（{why}）；请去掉 --db 再运行',
  'cli.db.why.workers': '工作者的队列在 SQLite 里',
  'cli.db.why.lab': '实验室运行它自己的 SQLite 文件',
  'cli.db.dlqKeptFiles': '--db {given}：faultlab dlq 读取一次运行用 --keep-db 保留下来的数据库，而那些是 SQLite 文件（在 PostgreSQL 上的运行什么也不保留：它的 schema 在运行结束时就被删除了）；请去掉 --db 再运行',
  'cli.db.tortureNotYet': '--db {given}：faultlab torture 目前只能在 SQLite 上运行（它的工作者进程共用一个 SQLite 文件）；请去掉 --db 再运行',
  'cli.db.mutantsQueue': '--db {given}：不指定场景时，explore --mutants 还会在多工作者场景上追捕队列的变异体，而它们的队列目前在 SQLite 里；请指定要在 PostgreSQL 上追捕的场景（例如 faultlab explore --mutants scenarios/*.yaml --db {given}），或者去掉 --db 再运行',
  'cli.db.cannotConnect': '--db {given}：无法连接：{problem}',

  // ── run ───────────────────────────────────────────────────────────────────────────────────────────
  'cli.run.runnerFailed': 'Runner 在 step() 之外出错：{failure}',
  'cli.run.constructorThrew': '它的构造函数抛出了 {what}',
  'cli.run.labTitle': '持久性支柱实验（文本轨迹）',
  'cli.run.who.runner': '{label} Runner',
  'cli.run.who.labs': '实验：不经过 Runner',
  'cli.run.who.mixed': '{label} Runner；实验：不经过 Runner',
  'cli.run.footer': '（种子 {seed}，{who}{kept}）',
  'cli.run.kept': ' · 数据库保留在 {dir}：{files}',
  'cli.run.keptNothing': ' · 没有数据库写入 {dir}',
  'cli.run.more': '更多：其余 {hidden} 条轨迹用 {all} 查看 · 只看某一个用 {one} · 每次运行各生成一个网页用 {html}',
  'cli.run.next': '下一步：阅读 lessons/zh/01-intents-attempts-effects.md · {pillars}（Runner 里的五根支柱）· {grade}（练习）',
  'cli.run.pagesTitle': 'faultlab run —— {count} 次运行',
  'cli.run.pagesSubtitle': '种子 {seed} · {who}',
  'cli.run.keepDbOne': '--keep-db 只能用于恰好一个场景（这里有 {count} 个）',
  'cli.run.keepDbKind': '--keep-db：{id} 是 {kind} 场景，没有运行数据库可保留（--keep-db 只用于 Runner 场景）',
  'cli.pages': '  网页：{index}',

  // ── explore ───────────────────────────────────────────────────────────────────────────────────────
  'cli.explore.depthBad': '--depth 只能是 1 或 2，得到的是 {given}',
  'cli.explore.workersBad': '--workers 必须是 1 到 {max} 之间的整数，得到的是 {given}',
  'cli.explore.preemptionsBad': '--preemptions 必须是 0 到 {max} 之间的整数，得到的是 {given}',
  'cli.explore.noRunnerScenario': '指定的目标中没有 Runner 场景',
  'cli.explore.mutantsNoRunner': '--mutants 探索的是变异体本身，不能再加 --runner',
  'cli.explore.barMutants': '变异体',
  'cli.explore.barDepth': '深度 {depth}',
  'cli.explore.whoMutant': '变异体 {name}',
  'cli.explore.pagesSubtitle': '{count} 处违例，每处一页，展示它的最小运行',

  // ── grade ─────────────────────────────────────────────────────────────────────────────────────────
  'cli.grade.isolation': '提交在这里运行时没有{missing}：提交在这里能触及的不只是它自己的运行（在 Linux 上以 root 运行评分器即可补上）',
  'cli.grade.isolation.other_user': '单独的用户（faultlab 不是以 root 运行）',
  'cli.grade.isolation.pid_namespace': '单独的进程命名空间（缺少 unshare 或不被允许）',
  'cli.grade.isolation.own_root': '只看得见自己文件的独立根目录（faultlab 不是以 root 运行，或不允许挂载命名空间）',
  'cli.grade.isolation.limits': '内存、进程和文件的上限（缺少 prlimit）',
  'cli.grade.intBad': '{option} 必须是 1 到 {max} 之间的整数，得到的是 {given}',
  'cli.grade.noScenarios': '{targets} 中没有 Runner 场景',
  'cli.grade.wroteExercism': '{file}（Exercism results.json v3）',
  'cli.grade.wroteJUnit': '{file}（JUnit XML）',
  'cli.grade.wrotePages': '{index}（每次运行旁边附参考实现的运行）',
  'cli.grade.wrote': '已写出 {files}',
  'cli.grade.couldNotWrite': '无法写出 {files}',
  'cli.grade.pagesSubtitle': '种子 {seed}',
  'cli.grade.notReplayed': '未回放：{why}',
  'cli.grade.noRun': '没有运行',
  'cli.grade.out.onto.input': '{option} {value}：那是正在评分的提交或场景——输出绝不写到被评分的东西上',
  'cli.grade.out.onto.scenarios': '{option} {value}：那是一个场景文件夹——写在那里的东西会被当成场景读取',
  'cli.grade.out.onto.own': '{option} {value}：那在 faultlab 自己的文件里（src、dist、scenarios、node_modules）——它们保持原样',
  'cli.grade.out.same': '{option} 和 {other} 都指向 {value}：每个输出需要自己的文件',
  'cli.grade.sameId': '{option}：{id}（{file}）与已在评分的场景（{other}）同名：每项测试需要自己的 id',
  'cli.grade.out.isFolder': '{option} {value}：这是一个文件夹，不是文件',
  'cli.grade.out.noFolder': '{option} {value}：没有可以写入它的文件夹 {folder}',
  'cli.grade.out.folderReadOnly': '{option} {value}：文件夹 {folder} 不可写',
  'cli.grade.out.cannotWrite': '{option} {value}：无法写到那里（{why}）',
  'cli.grade.out.notWritable': '{path} 不可写',
  'cli.grade.out.isFile': '{path} 是一个文件',

  // ── list ──────────────────────────────────────────────────────────────────────────────────────────
  'cli.list.head.id': 'id',
  'cli.list.head.title': '标题',
  'cli.list.head.faults': '故障',
  'cli.list.head.status': '预期状态',

  // ── dlq ───────────────────────────────────────────────────────────────────────────────────────────
  'cli.dlq.oneFolder': '请给出恰好一个文件夹：即 `faultlab run SCENARIO --keep-db DIR` 中的 DIR',
  'cli.dlq.none': '{dir} 中没有死信（只有带 durability.dlq 块的场景，在运行以耗尽结束且仍有待定动作时，才会留下死信）',
  'cli.dlq.noKey': '（无键）',
  'cli.dlq.head.id': 'id',
  'cli.dlq.head.status': '状态',
  'cli.dlq.head.scenario': '场景',
  'cli.dlq.head.intent': '意图',
  'cli.dlq.head.attempts': '尝试次数',
  'cli.dlq.head.lastError': '最后的错误',
  'cli.dlq.replayOne': '回放一条：{command}',
  'cli.dlq.noSuchLetter': '--replay {id}：{dir} 中没有这条死信（保留的有：{kept}）',
  'cli.dlq.keptNone': '无',
  'cli.dlq.busy': '--replay {id}：{dir} {why}',
  'cli.dlq.notPending': '--replay {id}：这条记录的状态是 {status}；只有待定（pending）的记录才能回放',

  // ── 目标中的实验（labRun.ts）─────────────────────────────────────────────────────────────────────────
  'cli.labs.andMore': '{shown} 等（另有 {more} 个）',
  'cli.labs.refuseOne':
    '{options} 不能用于实验：{labs} 是实验（kind: lab），它直接驱动持久性支柱，既没有 Runner，也没有库存数据库可供选择或保留。运行实验时请不要加 --runner、--storage 和 --keep-db。',
  'cli.labs.refuseMany':
    '{options} 不能用于实验：{labs} 都是实验（kind: lab），它们直接驱动持久性支柱，既没有 Runner，也没有库存数据库可供选择或保留。运行实验时请不要加 --runner、--storage 和 --keep-db。',
  'cli.labs.notForOne': '{command} 只处理 Runner 场景；{labs} 是实验（kind: lab），其中没有 Runner 可以交给 {command}。实验请用 faultlab run 运行。',
  'cli.labs.notForMany': '{command} 只处理 Runner 场景；{labs} 都是实验（kind: lab），其中没有 Runner 可以交给 {command}。实验请用 faultlab run 运行。',

  // ── --keep-db（keepDb.ts）与 --out（outDir.ts）──────────────────────────────────────────────────────
  'cli.keepDb.needsFolder': '--keep-db 需要一个文件夹',
  'cli.keepDb.refused': '--keep-db {given}：{why}',
  'cli.keepDb.isFile': '这是一个文件，不是文件夹（请给一个新的或空的文件夹）',
  'cli.keepDb.parentNotFolder': '{parent} 不是文件夹',
  'cli.keepDb.noParent': '它的上级文件夹 {parent} 不存在（请先创建）',
  'cli.keepDb.cannotUse': '无法使用：{code}',
  'cli.keepDb.cannotMake': '无法创建这个文件夹：{code}',
  'cli.keepDb.cannotRead': '无法读取：{code}',
  'cli.keepDb.othersFiles': '里面有其他文件（{files}）；请给一个新的或空的文件夹，或者只含 {tool} 和 {events} 的文件夹',
  'cli.keepDb.inUse': '正被另一次 faultlab 运行占用；请等它结束，或换一个文件夹',
  'cli.keepDb.cannotLock': '无法加锁：{code}',
  'cli.outDir.needsFolder': '{option} 需要一个文件夹',
  'cli.outDir.isFile': '{option} {given} 是一个文件，不是文件夹',
  'cli.outDir.onPathIsFile': '{option} {given}：{at} 是一个文件，不是文件夹',
  'cli.outDir.cannotWrite': '{option} {given}：无法在 {at} 中写入：{code}',
  'cli.outDir.noFolder': '{option} {given}：这条路径上没有一个文件夹存在',
  'cli.outDir.cannotMake': '{option} {dir}：无法创建 {level}：{code}',

  // ── --runner FILE（runnerOption.ts、contain.ts）─────────────────────────────────────────────────────
  'cli.runner.needsValue': '--runner 需要一个取值：reference、learner、mutant:NAME，或一个 .ts/.js 文件的路径',
  'cli.runner.isFolder': '--runner {name} 是一个文件夹：请给出导出 Runner 类的那个 .ts 或 .js 文件',
  'cli.runner.notRegular': '--runner {name} 不是普通文件：请给出导出 Runner 类的那个 .ts 或 .js 文件',
  'cli.runner.badExtension': '--runner {name}：Runner 文件应是 TypeScript 或 JavaScript（{extensions}），而不是 {ext}',
  'cli.runner.noExtension': '没有扩展名的文件',
  'cli.runner.hungAtLoad': '--runner {name}：加载文件没能在时限内完成（它在被导入时是否进入了死循环？）',
  'cli.runner.exitedAtLoad': '--runner {name}：这个文件在加载时调用了 process.exit()；Runner 文件只应定义它的类',
  'cli.runner.syntaxAt': '--runner {name}：{where} 处有语法错误：{message}',
  'cli.runner.syntax': '--runner {name}：语法错误：{message}',
  'cli.runner.threwAtLoad': '--runner {name}：这个文件在加载时抛出了 {kind}：{message}',
  'cli.runner.aValue': '一个非 Error 的值',
  'cli.runner.calledExit': 'Runner 调用了 process.exit({code})：Runner 应从 step() 返回状态，而不是结束进程',
} as const;
