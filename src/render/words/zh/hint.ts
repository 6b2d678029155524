/**
 * 评分器的提示阶梯：每类问题三级提示，一级比一级说得多——`question` 用一个问题把人引到该看的地方，
 * `rule` 说出规则以及它在契约里的位置，`code` 贴近代码。以两个空格开头的行是代码，照原样显示。
 * 这些提示是写给夜里独自做练习的学习者的：先让人自己想，再给规则，最后才给代码。
 */
export const hint = {
  // not_implemented
  'hint.notImplemented.question':
    '先把顺利路径走通：一步决定下一个动作，把它送到工具那里一次，记下回答——每件事一发生就保存——策略说结束就停下。光是这样就能通过 happy_path 和 read_only。一步必须保存什么？什么时候保存？（lessons/zh/08-the-exercise.md，“`step` 的契约”）',
  'hint.notImplemented.rule':
    '一步只把运行往前推一格：没有待定动作时，决定并准备下一个动作，保存 prepared（规则 2）；接着在同一步里给调用和尝试各计一次数，保存 attempt_started（规则 4），然后执行；成功了就记下观察、清空待定动作，保存 observed（规则 6）。',
  'hint.notImplemented.code':
    "顺利路径的骨架；走通之后，再补上规则 2、3、5 的错误处理：\n  if (state.status !== 'running') return state;\n  if (state.pending === null) {\n    const action = this.decide(state);\n    if (action.kind === 'finish') return this.finalize(state, action.status);\n    state.pending = this.prepare(state.task, action);\n    state.attempts = 0;\n    state.decisions += 1;\n    this.save(state, 'prepared');\n  }\n  state.calls += 1;\n  state.attempts += 1;\n  this.save(state, 'attempt_started');\n  const result = this.execute(state);\n  state.observations[state.pending.name] = result;\n  state.pending = null;\n  return this.save(state, 'observed');",
  // runner_error
  'hint.runnerError.question': '你的 step 抛出了异常。先读异常本身和它指向的那一行，再重放这个场景：轨迹会列出直到抛出异常那一步为止的每个事件。',
  'hint.runnerError.rule':
    'try/catch 里只该包住 this.execute(state)，而且只有 TransientError 和 ContractError 归你处理；其余一切（包括崩溃）都必须让它抛出去。执行的时候 state.pending 是不是还是 null？规则 2 得先把它准备好。',
  'hint.runnerError.code': 'step 返回的就是它拿到的那个状态（保存之后）。你需要的辅助方法只有 this.decide、this.prepare、this.save、this.finalize 和 this.execute，每一个在 src/runner/BaseRunner.ts 里都有说明。',
  // determinism
  'hint.determinism.question': '你的 step 读了时钟，或者掷了骰子。同样的状态必须永远走出同样的一步——不然，崩溃之后的恢复会走到哪里去？',
  'hint.determinism.rule': 'Runner 唯一需要的键来自 this.prepare(task, action)：它是意图的摘要，每次算出来都一样。时间和随机性属于模拟器，由种子驱动。',
  'hint.determinism.code': '删掉消息里点名的那次调用。如果你是拿它来生成键的，就改用 this.prepare 返回的待定动作，并在每次尝试里原样保留它。',
  // timeout
  'hint.timeout.question': '你的 step 一直没有返回。step 里是不是有个循环在等什么——等回复、等成功、等状态变化？',
  'hint.timeout.rule': '一步最多做一次尝试。不要在 step 里循环重试：遇到 TransientError 就保存 transient:<message> 然后返回；框架会再调用一次 step，那就是下一次尝试。',
  'hint.timeout.code': '去掉套在 this.execute 外面的 while/for 循环。重试来自下一次对 step 的调用：同一个待定动作，在规则 3 检查过预算之后再发。',
  // worker_crash
  'hint.workerCrash.question': '你的代码停掉了它所在的线程（process.exit，或者内存耗尽）。重放这个场景，看看是在哪里出的事。',
  'hint.workerCrash.rule': 'Runner 从不退出进程，除了状态什么也不留：找找 process.exit，或者每一步都在变大的数组和 Map。',
  'hint.workerCrash.code': 'Runner 在两步之间能留下的只有状态；实例字段反正会在崩溃时丢掉。把你需要的东西放进状态里，或者干脆不要它。',
  // process_died
  'hint.processDied.question': '你的代码结束了它所在的进程——process.exit()、process.kill()，或者内存耗尽。重放这个场景，看看是哪一步出的事。',
  'hint.processDied.rule': 'step 从不结束进程：它要么返回状态，要么抛出异常。找找 process.exit、process.kill，或者每一步都在变大的数组和 Map。',
  'hint.processDied.code': 'Runner 在两步之间能留下的只有状态；实例字段反正会在崩溃时丢掉。把你需要的东西放进状态里，或者干脆不要它。',
  // not_explored
  'hint.notExplored.question': '这个场景没法探索：它按原样运行时没有跑到终点（或者之前的某次探索卡住了）。先把按原样运行的场景修好。',
  'hint.notExplored.rule': '探索会在每个位置多加一个故障，把场景一遍遍重跑；前提是你的 Runner 能把原样的场景跑完，既不抛异常，也不卡死。',
  'hint.notExplored.code': '先修好上面第一个失败的场景，再评一次分：它的探索会跟着进行。',
  // crash_caught
  'hint.crashCaught.question': '你的 step 接住了模拟的崩溃，然后接着往下做。进程都已经没了，还有谁来执行你 catch 块里剩下的代码？',
  'hint.crashCaught.rule':
    '崩溃既不是 TransientError，也不是 ContractError：进程已经没了，框架会从事件日志重建一个新的 Runner。catch 里只处理这两种错误，其余一切都让它抛出去（规则 5）。',
  'hint.crashCaught.code':
    "先给错误归类；两种都不是的，原样再抛出去：\n  if (isTransientError(error)) { … }\n  if (isContractError(error)) return this.finalize(state, 'tool_error', error);\n  throw error;",
  // new_key_per_attempt
  'hint.newKeyPerAttempt.question': '这次重试带的键和第一次尝试不一样。在账本看来，一个它从没见过的键意味着什么？',
  'hint.newKeyPerAttempt.rule':
    '重试是同一个意图，所以带同一个键：就是准备动作并保存时（规则 2）由 this.prepare(task, action) 生成的那个。账本只凭这个键认出重试。',
  'hint.newKeyPerAttempt.code': '找出在 `if (state.pending === null) { … }` 之外写 state.pending 或 pending.args.key 的每一行。重试时，state.pending 保存时是什么样，就原样发出去。',
  // args_changed_on_retry
  'hint.argsChangedOnRetry.question': '这次重试带的参数和第一次尝试不一样。同一个键下，工具会怎么看待一个内容不同的请求？',
  'hint.argsChangedOnRetry.rule':
    '参数指纹覆盖除键以外的全部参数（第 3 课）：同一个键配上别的参数，就是 PAYLOAD_CONFLICT；重新读到的版本是一个新的决定，不是重试。重试原样发送待定动作。',
  'hint.argsChangedOnRetry.code': '两次尝试之间别碰 state.pending.args——不加尝试计数，也不换新的 expected_version。如果动作非改不可，那就是一个新的意图：重新决定，重新准备。',
  // contract_error_retried
  'hint.contractErrorRetried.question': '你的 step 会重试哪些错误？ContractError 是确定的拒绝：同样的请求只会得到同样的回答。',
  'hint.contractErrorRetried.rule':
    '只重试 TransientError（效果可能没发生，也可能已经发生：保留待定动作，用同一个键再试）。ContractError 让运行就此结束：以 tool_error 结束它（规则 5）。',
  'hint.contractErrorRetried.code':
    "套在 this.execute 外面的 catch，完整写出来是这样：\n  } catch (error) {\n    if (isTransientError(error)) {\n      if (state.attempts > state.task.max_retries) state.status = 'retry_exhausted';\n      return this.save(state, `transient:${error.message}`);\n    }\n    if (isContractError(error)) return this.finalize(state, 'tool_error', error);\n    throw error; // 崩溃不归你处理\n  }",
  // budget_checked_late
  'hint.budgetCheckedLate.question': '预算已经用完了，却还有请求发了出去。你的 step 是在什么时候拿 calls 和 max_calls 比较的——请求发出之前，还是之后？',
  'hint.budgetCheckedLate.rule':
    '每次尝试都是一次调用，所以每次之前都要检查预算：决定新动作时（规则 2），以及每次尝试之前，对已经待定的动作的重试也不例外（规则 3）。调用之后才检查，就晚了一次调用。',
  'hint.budgetCheckedLate.code':
    "同样的两行，放在两个地方——决定出一个工具动作之后（this.prepare 之前），以及紧挨着 state.calls += 1 之前：\n  if (state.calls >= state.task.max_calls) {\n    return this.finalize(state, 'budget_exhausted');\n  }",
  // saved_late
  'hint.savedLate.question': '你的 step 还没保存，请求就发出去了。要是请求还在路上时进程死了，新的 Runner 会在日志里看到什么？',
  'hint.savedLate.rule':
    '先保存，再发送：先把带着键的动作保存为 prepared（规则 2），再把这次尝试计上数——calls 和 attempts——保存为 attempt_started（规则 4），两样都在 this.execute 之前。工具在它自己的事务里提交；你的保存是另一个事务（第 4 课讲的那段空窗）。',
  'hint.savedLate.code': "一次尝试的顺序：\n  state.calls += 1;\n  state.attempts += 1;\n  this.save(state, 'attempt_started');\n  const result = this.execute(state);",
  // cleared_after_save
  'hint.clearedAfterSave.question': '你的 step 保存观察结果时，动作还是待定的。要是进程就在这次保存之后死了，新的 Runner 会从日志里读回什么？',
  'hint.clearedAfterSave.rule': '日志必须在任何时刻都能重建出你的状态，而不只是在最后：每个改变都要在 step 返回之前保存。成功时，把观察结果记下并清除待定动作，作为同一个状态保存为 observed（规则 6）。',
  'hint.clearedAfterSave.code': "两处改动，然后一次保存：\n  state.observations[state.pending.name] = result;\n  state.pending = null;\n  return this.save(state, 'observed');",
  // pending_dropped
  'hint.pendingDropped.question': '遇到 TransientError 之后，你的 step 把待定动作放掉了。效果真的肯定没有发生吗？',
  'hint.pendingDropped.rule':
    'TransientError 之后待定动作要留着（规则 5）：回复丢失之后效果可能已经发生，只有用同一个键重试才能取回它的回执。只有成功才清除待定动作（规则 6）。',
  'hint.pendingDropped.code': '永远不要在 catch 里写 state.pending = null。只有成功才清除它：state.observations[state.pending.name] = result; state.pending = null; 然后保存 observed。',
  // lost_reply_as_failure
  'hint.lostReplyAsFailure.question': '你的 step 因为一次 TransientError 结束了运行。工具是拒绝了这个请求——还是只是回答没有送回来？',
  'hint.lostReplyAsFailure.rule':
    'TransientError 不是拒绝：它可以重试，用同一个键（规则 5）。回复丢失之后效果甚至可能已经发生；重试会把结果问清楚。运行只在 attempts > max_retries 时结束（retry_exhausted），或者遇到 ContractError 时结束（tool_error）。',
  'hint.lostReplyAsFailure.code':
    "遇到 TransientError：保留待定动作并保存；只有重试次数用完了才结束运行：\n  if (state.attempts > state.task.max_retries) state.status = 'retry_exhausted';\n  return this.save(state, `transient:${error.message}`);",
  // load_error
  'hint.loadError.question': '评分器没能加载你的文件。读一读错误信息：它会指出是哪一行。',
  'hint.loadError.rule': '文件必须导出一个带 step(state) 方法的类（export class LearnerRunner extends BaseRunner { … }）。有语法错误或导入错误，文件就根本加载不了。',
  'hint.loadError.code': '运行 `npx tsc -p tsconfig.json --noEmit`，看清每个编译错误和它的行号；改掉第一个，再评一次分。',
  // inv1_one_effect_per_intent
  'hint.inv1OneEffectPerIntent.question': '一个意图生效了两次。重试的时候账本看到的是什么——同一个键，还是一个它从没见过的键？',
  'hint.inv1OneEffectPerIntent.rule': '只有同一个键配同一个指纹，账本才会交回原来的回执。换了键，或者改了参数，在工具看来就是一次新的预留（第 2 课）。',
  'hint.inv1OneEffectPerIntent.code':
    '键只生成一次：在规则 2 里由 this.prepare(task, action) 生成，和待定动作一起保存。别的任何一行都不能写 state.pending 或它的参数；重试时把 state.pending 原样发出去。',
  // inv2_call_budget
  'hint.inv2CallBudget.question': '每次尝试都是一次调用，重试也算。你的 step 在哪里拿 calls 和 max_calls 比较？',
  'hint.inv2CallBudget.rule':
    '预算要查两处：决定时（规则 2，准备新动作之前），以及每次尝试之前（规则 3，对待定动作的重试也一样）。哪一处查出预算用完，都以 budget_exhausted 结束运行。',
  'hint.inv2CallBudget.code':
    "同样的两行，放在两个地方——决定出一个工具动作之后（this.prepare 之前），以及紧挨着 state.calls += 1 之前：\n  if (state.calls >= state.task.max_calls) {\n    return this.finalize(state, 'budget_exhausted');\n  }",
  // inv3_same_key_same_args
  'hint.inv3SameKeySameArgs.question': '重试是同一个意图。两次尝试之间，你的 step 有没有改动 state.pending——它的键，或者它的参数？',
  'hint.inv3SameKeySameArgs.rule': '键只在准备动作时由 this.prepare(task, action) 生成一次（规则 2）。重试时待定动作已经在了：跳过规则 2，把 state.pending 原样发出去。',
  'hint.inv3SameKeySameArgs.code':
    '找出在 `if (state.pending === null) { … }` 之外对 state.pending（或 pending.args.key）的每一处赋值。除了准备动作，唯一能写待定动作的地方，是成功之后的 `state.pending = null`。',
  // inv4_log_rebuilds_state
  'hint.inv4LogRebuildsState.question': '你的最终状态里有东西从来没保存过。崩溃之后只剩下事件日志：新的 Runner 会重建出什么？',
  'hint.inv4LogRebuildsState.rule': '对状态的每一次改动，都要在 step 返回之前跟上一次 this.save(state, label)。结束运行也一样：this.finalize(state, status) 会设置状态并保存。',
  'hint.inv4LogRebuildsState.code': '重放这个场景，把最后一个已保存的事件和消息里列出的最终状态对照；对不上的那个字段，就是在最后一次保存之后才改的。',
  // inv5_contract_error_changes_nothing
  'hint.inv5ContractErrorChangesNothing.question': '你的 step 会重试哪些错误？ContractError 是确定的拒绝：同样的请求只会得到同样的回答。',
  'hint.inv5ContractErrorChangesNothing.rule':
    '只重试 TransientError（效果可能没发生，也可能已经发生：保留待定动作，用同一个键再试）。ContractError 让运行就此结束：以 tool_error 结束它（规则 5）。',
  'hint.inv5ContractErrorChangesNothing.code':
    "套在 this.execute 外面的 catch，完整写出来是这样：\n  } catch (error) {\n    if (isTransientError(error)) {\n      if (state.attempts > state.task.max_retries) state.status = 'retry_exhausted';\n      return this.save(state, `transient:${error.message}`);\n    }\n    if (isContractError(error)) return this.finalize(state, 'tool_error', error);\n    throw error; // 崩溃不归你处理\n  }",
  // inv6_success_has_receipt
  'hint.inv6SuccessHasReceipt.question': '你的运行成功了，手里却没有那次 reserve 的回执。回复丢失之后，那个待定的 reserve 到哪里去了？',
  'hint.inv6SuccessHasReceipt.rule':
    '遇到 TransientError 之后要留着 state.pending：效果可能已经发生。下一步用同一个键重试同一个动作，账本会交回原来的回执——把它记为观察。',
  'hint.inv6SuccessHasReceipt.code': '永远不要在 catch 里写 state.pending = null。只有成功才清除它：state.observations[state.pending.name] = result; state.pending = null; 然后保存 observed。',
  // inv7_run_terminates
  'hint.inv7RunTerminates.question': '你的运行始终没有到达终止状态。step 里是不是有一条路，既不往前走，也不结束运行？',
  'hint.inv7RunTerminates.rule':
    '每一步都要改变点什么并保存：准备、尝试、观察，或者结束。重试次数用完，以 retry_exhausted 结束（规则 5）；调用次数用完，以 budget_exhausted 结束（规则 3）。',
  'hint.inv7RunTerminates.code': '看看崩溃之后的那一步：状态里有一个 attempts > 0 的待定动作——那不过是一次普通的重试（规则 3 到 6），没有什么需要等的。',
  // status
  'hint.inv8OneLiveHolder.question': '两个 worker 同时持有了任务。什么能让认领看到的表，和它的授予提交时一样？',
  'hint.inv8OneLiveHolder.rule': '一次授予是一个事务，它在读之前就拿到写锁（BEGIN IMMEDIATE）：它读到的任务在它写之前不会被别人授予。延迟的 BEGIN 先读，到写的时候可能发现读到的已经变了（SQLITE_BUSY）：绝不能把读到的再写一遍。',
  'hint.inv8OneLiveHolder.code': "claim：先 this.db.exec('BEGIN IMMEDIATE')，再读自己持有的任务或第一个排队的任务，然后 UPDATE … token = token + 1，最后 COMMIT——任何错误都要 ROLLBACK。",
  'hint.inv9TokenPlusOne.question': '有一次授予的令牌不是上一个加一。哪些授予会移动令牌——同一个 worker 的重新认领算不算？',
  'hint.inv9TokenPlusOne.rule': '每次授予都在同一条 UPDATE 里设 token = token + 1，同一个 worker 的重新认领也一样（它认领的回复丢了，或它在被崩溃结束的上一段生命里持有过）；别的都不移动令牌。',
  'hint.inv9TokenPlusOne.code': '授予时：UPDATE tasks SET token = token + 1, … WHERE task_id = ?——由 SQLite 从它更新的那一行算出，绝不用之前读到的值。',
  'hint.inv10NoStaleToken.question': '有一次写入用的令牌比任务持有者的旧。你的 fence 检查了写入者的什么？',
  'hint.inv10NoStaleToken.rule': 'fence 是每个持有者的写入提交时都要满足的条件：任务、持有者和令牌，并且仍在运行。少了令牌，僵尸（暂停期间租约过期的 worker）就会覆盖它的后继者。',
  'hint.inv10NoStaleToken.code': "把持有者和令牌都写进 fence：static readonly fence = \"task_id = @task AND owner = @owner AND token = @token AND state = 'running'\"",
  'hint.inv11FinishedStaysFinished.question': '一个已结束的任务又变了。你的哪次写入能碰到已完成的任务——finish，还是清扫？',
  'hint.inv11FinishedStaysFinished.rule': '结束了的任务绝不再变：finish 只在持有者完整的 fence（任务、持有者、令牌、运行中）下写；清扫只在一个事务里送回它发现已过期、仍在运行的那一次授予。',
  'hint.inv11FinishedStaysFinished.code': "finish：UPDATE … WHERE <fence>；sweep：BEGIN IMMEDIATE，读出过期租约，UPDATE … WHERE task_id = ? AND token = ? AND state = 'running'，COMMIT。",
  'hint.inv12BudgetsAcrossWorkers.question': '几个 worker 加起来发出的请求超过了任务的预算。哪个 worker 的请求本该被拒绝？',
  'hint.inv12BudgetsAcrossWorkers.rule': '请求也是持有者的一次写入：预订在 fence 下提交，所以僵尸的请求会被拒绝（STALE_FENCE），预算只由持有者花一次。',
  'hint.inv12BudgetsAcrossWorkers.code': '检查 fence：它必须写明持有者和令牌，否则过期持有者的尝试会被执行并计数。',
  'hint.inv13NoStrandedTask.question': '有个任务没有活着的持有者，也没有再被授予。正当持有者的写入能通过吗——清扫会送回过期的任务吗？',
  'hint.inv13NoStrandedTask.rule': '租约管活性：过期的租约必须回到队列（清扫）并再次被授予；fence 也必须放行持有者自己的写入（它的令牌等于任务的令牌），否则什么都做不完。',
  'hint.inv13NoStrandedTask.code': "fence：token = @token（不是 <=）；sweep：把 lease_until_ms <= now 的运行中任务都送回，state 'queued'，owner 置 NULL，令牌保留。",
  'hint.workers.question': '队列的数字和场景的不一样。你的哪次写入多授予或少授予了一次，或放过了一次过期写入？',
  'hint.workers.rule': '每次授予（新的持有者或新的令牌）都会计数；每次被 fence 拒绝的过期写入也会计数。把你的运行和参考队列的对比：两份轨迹第一处不同就是答案。',
  'hint.workers.code': '用 `--runner reference` 和你的文件各跑一次这个场景，把两份轨迹并排读。',
  'hint.status.question': '运行结束时的状态不是这个场景预期的那个。契约里是哪条规则决定这个状态的？',
  'hint.status.rule':
    'succeeded / gave_up 来自 finish 动作（规则 2）；policy_error 来自决定失败（规则 2）；budget_exhausted 来自预算检查（规则 2 和 3）；retry_exhausted 来自 TransientError 之后 attempts > max_retries（规则 5）；tool_error 来自 ContractError（规则 5）。',
  'hint.status.code': '分别用你的 Runner 和参考 Runner（`--runner reference`）重放这个场景：两份轨迹第一处不同的那一行，就是该看的那条规则。',
  // calls
  'hint.calls.question': '你的运行调用次数不对。每次尝试都是一次调用，第一次和每次重试都算——崩溃之后的恢复也不会把计数清零。',
  'hint.calls.rule': 'calls 和 attempts 一起增加，每次尝试各加一，在请求发出之前保存在 attempt_started 里（规则 4）。新动作把 attempts 重置为 0，但从不重置 calls。',
  'hint.calls.code': '把你的轨迹和参考运行的对照，数一数 attempt_started 事件。多一个还是少一个，就能看出问题出在哪里。',
  // ledger
  'hint.ledger.question': '工具手里的回执数量不对。是某次 reserve 发生了两次，还是根本没有发生？',
  'hint.ledger.rule': '一个效果一行账本。用同一个键重试不会多出一行（账本直接作答）；换一个新键就会多出一行。',
  'hint.ledger.code': '重放这个场景，在轨迹里找 `账本 +1` 这样的行：每一行就是一个效果。',
  // stock
  'hint.stock.question': '货架上剩下的数量不对：要么发生了不该发生的效果，要么该发生的没有发生。',
  'hint.stock.rule': '只有工具以一个它没见过的键提交 reserve 时，库存才会变。把你轨迹里的 reserve 和参考运行的对照一下。',
  'hint.stock.code': '重放这个场景，在轨迹里找 `库存 camera 3→2` 这样的行：每一行就是一个效果。',
  // pending
  'hint.pending.question': '运行结束时的待定动作和预期的不一样。待定动作什么时候必须留着，什么时候必须清掉？',
  'hint.pending.rule': '待定动作只由成功清除（规则 6）。TransientError 要留着它，重试次数用完也一样（效果可能已经发生）；ContractError 结束运行时它也还在。',
  'hint.pending.code': '在 catch 里别碰 state.pending；只在记下观察之后才把它设为 null。',
  // observations
  'hint.observations.question': '你的运行记下的工具结果和预期的不一样。',
  'hint.observations.rule': '只在成功时记下结果：state.observations[state.pending.name] = result（规则 6），失败之后绝不记。',
  'hint.observations.code': '把你轨迹里的 observed 事件和参考运行的对照一下。',
  // fault_not_reached
  'hint.faultNotReached.question': '这个场景的故障一直没有触发：你的运行根本没走到它发作的那个位置。你的运行是从哪里开始和参考运行走上不同的路的？',
  'hint.faultNotReached.rule': '上面给出的与参考运行的第一处偏离，就是你的运行离开这个场景所测路径的地方。',
  'hint.faultNotReached.code': '分别用你的 Runner 和 `--runner reference` 重放它，把两份轨迹逐行对照，一直看到那个位置。',
  // reference_fails
  'hint.referenceFails.question': '这个场景本身坏了：参考 Runner 也通不过它，所以没有哪个 Runner 能通过。',
  'hint.referenceFails.rule': '运行 `npx faultlab run <场景文件>`，看看参考 Runner 得到了什么，然后改正场景的 expect: 部分。',
  'hint.referenceFails.code': '检查列出的每个故障都能触发，并且预期的数字与参考运行相符。',
} as const;
