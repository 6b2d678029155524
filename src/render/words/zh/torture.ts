/** `faultlab torture`（docs/spec.md §19）：真实的工作进程、真实的 SIGKILL 与 SIGSTOP、对数据库文件的检查。术语见 GLOSSARY.md。 */
export const torture = {
  // ── help ──
  'help.torture.head':
    'faultlab torture [选项]\n' +
    '  在一个 WAL 模式的 SQLite 文件上启动若干工作进程，运行队列的协议，并按种子\n' +
    '  在真实的时刻对它们发 SIGKILL（然后重启）和 SIGSTOP/SIGCONT。每次杀死之后\n' +
    '  以及结束时检查这个文件：没有双重效果、没有丢失的意图、账本行数 = 效果数、\n' +
    '  没有过期写入、integrity_check 为 ok。\n' +
    '  加上 --db postgres（或 --db postgres://…）时，工作进程改为共用\n' +
    '  PostgreSQL 服务器上的一个 schema，各自按 URL 连接 —— 就像多台机器上的\n' +
    '  工作进程那样 —— 并由同样的检查读取它。',
  'help.torture.workers': '工作进程的个数（默认 {workers}）',
  'help.torture.kills': '要发的 SIGKILL 次数，每次之后重启并检查（默认 {kills}）',
  'help.torture.pauses': '要发的 SIGSTOP/SIGCONT 次数（默认：杀死次数的一半）',
  'help.torture.lease': '一次授予的有效期，真实毫秒（默认 {ms}）',
  'help.torture.tool': '每次工具调用在线路上花的真实毫秒数（默认 0）：\n任务越慢，僵尸越常撞上它的后继者',
  'help.torture.seed': '抽出计划所用的种子（默认 {seed}）：同一个种子发同样的信号；\n它们落在哪里取决于真实时间',
  'help.torture.runner': 'reference（默认），或 mutant:NAME —— 故意写错的队列、\n工作进程、Runner 或工具，检查必须把它抓出来',
  'help.torture.terminateBackends':
    '\n与 --db postgres… 一起用：约一半的杀死改为结束工作\n进程在服务器上的后端（pg_terminate_backend），而不是\n杀死进程本身 —— 工作进程脚下的连接断掉，是同一种崩溃',
  'help.torture.join':
    '与 --db postgres://… 一起用：本次运行的工作进程共用\n' +
    'schema 为 SCHEMA 的那次运行的队列 —— 就像另一台机器上的\n' +
    '工作进程；由那次运行生产、清扫并排空队列，本次只杀死\n' +
    '自己的工作进程并检查（那次运行启动时会说出它的 schema）',
  // ── bad options ──
  'cli.torture.joinNeedsUrl': '--join SCHEMA 加入的是双方都能连到的服务器上的运行：请同时给出 --db postgres://…',
  'cli.torture.badJoin': '--join 接受的是 torture 运行启动时说出的 schema（faultlab_run_…），而不是 {given}',
  'cli.torture.noRunToJoin': '--db {given} 上没有 schema 为 {schema} 的 torture 运行：那次运行还在进行吗？（它结束时会删除自己的 schema）',
  'cli.torture.terminateNeedsPostgres': '--terminate-backends 结束的是工作进程的 PostgreSQL 后端：请同时给出 --db postgres（或 --db postgres://…）',
  'cli.torture.badNumber': '{option} 必须是 {min} 到 {max} 之间的整数，收到的是 {given}',
  'cli.torture.badRunner': 'torture 以进程运行 faultlab 自己的工作进程：--runner reference 或 mutant:NAME，而不是 {given}',
  // ── while it runs ──
  'torture.progress': 'torture：杀死 {kills}/{plannedKills} · 停顿 {pauses}/{plannedPauses} · 完成任务 {finished} · 拒绝的过期写入 {stale} · {seconds} 秒',
  'torture.head': 'faultlab torture —— {workers} 个工作进程共用一个 SQLite 文件（WAL），种子 {seed}，租约 {lease} 毫秒，工具调用 {tool} 毫秒，runner {runner}',
  'torture.headPostgres': 'faultlab torture —— {workers} 个工作进程共用一个 PostgreSQL schema（--db {db}），种子 {seed}，租约 {lease} 毫秒，工具调用 {tool} 毫秒，runner {runner}',
  'torture.joinable': 'torture：另一台机器上的工作进程可以用这条命令加入本次运行的队列，直到它结束：{command}',
  'torture.joined': '加入了 schema {schema} 中的运行：它的工作进程与这里的共用一个队列；由那次运行生产、清扫并排空队列',
  'torture.joinedEnded': '所加入的运行先于本次结束（它的 schema 已删除）：这里没有做最后一次检查，数字应由那次运行给出。',
  'torture.plan':
    '计划 {digest}：按种子抽出 {kills} 次 SIGKILL 和 {pauses} 次 SIGSTOP/SIGCONT —— 同一个种子给出同一个计划；\n' +
    '每个信号落在哪里取决于真实时间，每次运行都不一样',
  // ── the table ──
  'torture.row.kills': '杀死',
  'torture.note.kills': '每次之后重启并检查文件（共检查 {checks} 次，最后一次在结束时）',
  'torture.note.killsPostgres': '每次之后重启并检查 schema（共检查 {checks} 次，最后一次在结束时）',
  'torture.row.pauses': '停顿',
  'torture.note.pauses': 'SIGSTOP，½ 到 4 个租约之后 SIGCONT',
  'torture.row.tasks': '任务',
  'torture.note.tasks': '完成 {done} · 失败 {failed} · 未结束 {left}',
  'torture.row.effects': '效果',
  'torture.note.effects': '账本行 {receipts}',
  'torture.row.terminated': '结束的后端',
  'torture.note.terminated': '属于杀死次数：工作进程的服务器连接被结束（pg_terminate_backend），工作进程因此而死',
  'torture.row.grants': '授予',
  'torture.note.grants': '认领得到的授予，每次都有新的防护令牌',
  'torture.row.stale': '拒绝的过期写入',
  'torture.note.counted': 'STALE_FENCE，由工作进程计数：SIGKILL 会丢掉它还没报告的部分',
  'torture.row.busy': 'BUSY 重试',
  'torture.note.busy': '遇到别的进程持有写锁、等待后重新执行的语句',
  'torture.row.throughput': '吞吐量（任务/秒）',
  'torture.note.throughput': '{seconds} 秒内完成 {finished} 个任务',
  'torture.checks': '对文件的检查（每次杀死之后，以及结束时）',
  'torture.checksPostgres': '对 schema 的检查（每次杀死之后，以及结束时）',
  'torture.found': '发现 {n} 处',
  'torture.checkBroken': '{title}：{found} —— {first}',
  'torture.notDrained': '信号停止之后，工作进程没能及时完成所有任务。',
  'torture.stoppedAt': '第 {kill} 次杀死之后有检查失败：运行就此停止。',
  'torture.workerError': '工作进程 {worker} 自行结束（{exit}）：{said}',
  'torture.held': '成立：所有检查都通过了。',
  'torture.broken': '不成立：有检查失败。',
  'torture.powerLoss':
    '这证明协议经得起进程崩溃（SIGKILL、SIGSTOP，机器照常运行）—— 而不是断电：SQLite 的文档提醒，\n' +
    '断电可能丢失或损坏磁盘尚未持久化的内容，而这些文件是以 synchronous=OFF 运行的。',
  'torture.powerLossPostgres':
    '这证明协议经得起工作进程的崩溃（SIGKILL、SIGSTOP、连接被结束，服务器照常运行）—— 而不是服务器自身的崩溃或断电：\n' +
    '内嵌的服务器以 fsync=off 运行。这里没有 integrity_check：那是 SQLite 的，检查的是由客户端写入的文件；\n' +
    'PostgreSQL 的数据页由服务器自己保管。',
  // ── the checks (src/torture/fileChecks.ts) ──
  'torture.check.integrity.title': 'PRAGMA integrity_check 回答 ok',
  'torture.check.integrity.broken': '{file}：{detail}',
  'torture.check.double_effects.title': '没有双重效果：每个意图至多生效一次',
  'torture.check.double_effects.found': '{task} 生效了 {effects} 次，持有 {receipts} 张回执：一个意图，一次效果 —— 重试必须带同一个键，回执必须和效果一起提交',
  'torture.check.ledger_is_effects.title': '账本行数 = 效果数',
  'torture.check.ledger_is_effects.found': '{item}：版本变了 {effects} 次，{start} 个里剩 {available} 个，但账本有 {receipts} 张回执，共取走 {taken} 个 —— 效果和它的回执要么一起提交，要么都不提交',
  'torture.check.lost_intents.title': '没有丢失的意图：每个任务都完成或失败',
  'torture.check.lost_intents.unfinished': '信号停止之后，{task} 仍是 {state}：没有谁结束它 —— 死去的持有者的任务必须回来（租约到期、清扫把它送回），并被完成或判为失败',
  'torture.check.lost_intents.noReceipt': '{task} 已完成，账本里却没有它的回执：它的成功被记下了，效果却没有',
  'torture.check.lost_intents.missing': '生产者排入了 {enqueued} 个任务；文件里只有 {found} 个',
  'torture.check.lost_intents.logDisagrees': '{task} 以 {status} 结束，可它日志的最后一行写的是 {logged}：日志必须保存任务结束时的状态 —— 从它恢复的持有者会把任务再跑一遍',
  'torture.check.lost_intents.failedWithEffect': '{task} 以 {status} 失败 —— 拒绝本不改变任何东西 —— 可它的物品却变了 {effects} 次：一个已经生效的意图被报告为失败，还会被再做一次',
  'torture.check.fence.title': '防护成立：没有过期写入落地',
  'torture.check.fence.finishedStale': '{task} 以令牌 {finished} 结束，而它最后一次授予的令牌是 {token}：一个过期的持有者结束了别人持有的任务 —— 每次写入都必须由任务、持有者和令牌共同防护',
  'torture.check.fence.logBackwards': '{task} 日志的第 {seq} 行以令牌 {token} 写入，而它前面已有令牌 {before} 的行：僵尸在它的后继者之后写入了 —— 存储必须拒绝令牌倒退的写入',
  'torture.check.fence.sharedToken': '{task} 的日志里有令牌 {token} 下来自 {owners} 的行：同一个令牌被授予了两次 —— 认领必须在一个持有写锁的事务里（BEGIN IMMEDIATE）读和写，并把令牌加一',
  'torture.check.fence.reopened': '{task} 以令牌 {finished} 结束之后又成了 {state}：已结束的任务永不再变 —— 每次写入（清扫的也算）都必须要求任务仍在运行',
  'torture.worker.stepBound': '{worker} 把 {task} 推进了 {steps} 步仍未结束：它的 Runner 在打转',
} as const;
