/** 检查（src/check）：每个不变量的标题，以及它被打破时用来讲清楚道理的那句话；场景数据的含义；场景本身是否有效；实验的数据检查。 */
export const check = {
  'check.inv1.title': '每个意图至多一个效果',
  'check.inv1.keyRows': '键 {key} 在账本中有 {rows} 行：一个键只能有一张回执',
  'check.inv1.effectWithoutReceipt': '有效果却没有回执',
  'check.inv1.receiptWithoutEffect': '有回执却没有效果',
  'check.inv1.notConserved':
    '{item} 现在是 {available}（v{version}），可是初始的 {initial}（v{initialVersion}）减去账本 {rows} 行里的 {reserved} 件，应当是 {want}（v{wantVersion}）：{what} —— 效果和它的回执必须在同一个事务里提交',
  'check.inv1.tooManyEffects': 'reserve 生效了 {own} 次，而意图只有 {intents} 个：任务 {task} 在账本中有 {own} 行 —— 是不是某次重试生成了新的幂等键？',
  'check.inv1.ok': '每个意图一个效果；库存和版本与账本相符',

  'check.inv2.title': '调用次数 <= max_calls，尝试次数如实计数，每一步之后都如此',
  'check.inv2.wire': 'Runner 向线路发出了 {wire} 个请求，而 max_calls 是 {max}：每次尝试之前都必须检查预算，重试也不例外',
  'check.inv2.wireInRun': 'Runner 在本次运行中向线路发出了 {wire} 个请求，而 max_calls 是 {max}：每次尝试之前都必须检查预算，重试也不例外',
  'check.inv2.wireInReplay': 'Runner 在第 {replay} 次回放中向线路发出了 {wire} 个请求，而 max_calls 是 {max}：每次尝试之前都必须检查预算，重试也不例外',
  'check.inv2.logged': '调用次数达到了 {logged}，而 max_calls 是 {max}：每次尝试之前都必须检查预算',
  'check.inv2.ok': '{actual} 次调用，没有超出 max_calls {max}',

  'check.inv3.title': '待定动作的每次尝试都沿用它的键和参数；它一直待定到得到回答，每一步之后都如此',
  'check.inv3.keyChanged':
    '{name}（第 {decision} 个决策）在第 {call} 次调用时用的键是 {key}，而它的第一次尝试（第 {firstCall} 次调用）用的是 {firstKey}：重试必须沿用准备这个动作时生成的那个键',
  'check.inv3.argsChanged': '{name}（第 {decision} 个决策）在第 {call} 次调用时把参数从 {from} 改成了 {to}：重试必须原样携带待定动作',
  'check.inv3.notPersisted': '第 {call} 次调用发出了 {name}，却没有保存待定动作：请求发出之前先把待定动作持久化（prepared、attempt_started），否则一次崩溃就会把它丢掉',
  'check.inv3.sentOther': '第 {call} 次调用发出的是 {name} {args}，可保存的待定动作是 {saved} {savedArgs}：持久化了什么，就原样发送什么',
  'check.inv3.ok': '每次尝试都原样携带了待定动作',

  'check.inv4.title': '事件日志在每一步之后都能重建出状态',
  'check.inv4.unsavedStep': '第 {step} 步之后，Runner 持有的状态是它的日志重建不出来的：最后一个事件 #{seq} 在 {fields} 上不同（日志：{log}，Runner：{runner}）——那一刻一次崩溃就会丢掉它；每次改变之后、step 返回之前都要保存',
  'check.inv4.nothingSaved': '第 {step} 步之后，Runner 持有的状态一点都没有保存：那一刻一次崩溃就会全部丢掉',
  'check.inv4.noState': '没有最终状态可以和日志比较',
  'check.inv4.differs': '由事件日志重建的状态与 Runner 的最终状态在 {fields} 上不一致（日志：{log}，Runner：{runner}）：每次改变之后都要保存，否则一次崩溃就会把它丢掉',
  'check.inv4.ok': '每一步之后，日志都能重建出状态',

  'check.inv5.title': 'ContractError 是最终结果，且什么都不改变',
  'check.inv5.retried': 'Runner 收到 ContractError {code} 之后又尝试了 {name}（第 {attempt} 次尝试）：契约错误永不重试 —— 同样的请求只会得到同样的拒绝，白白耗费预算',
  'check.inv5.changedData': '{tool} 回答了 ContractError {code}，却改动了工具的数据：拒绝必须什么都不改变（回滚事务）',
  'check.inv5.refusedCommitted':
    '{tool} 对一个请求回答了 ContractError {code}，而这个请求的效果已经以同一个键、同一个指纹提交过了：忠实的重试应当拿到原来的回执 —— 先查账本，再查版本',
  'check.inv5.ok': '每个 ContractError 都没有改动数据，并结束了该动作',

  'check.inv6.title': 'succeeded 意味着每个 reserve 都有一张回执，并且被观察到',
  'check.inv6.rows': '运行成功了，但 reserve（第 {decision} 个决策，键 {key}）在账本中有 {rows} 行：每个 reserve 意图恰好需要一张回执',
  'check.inv6.notObserved': '运行成功了，但 Runner 没有 reserve 的观察记录：是不是失败之后把待定动作丢掉了？',
  'check.inv6.otherReceipt': 'reserve 的观察记录 {observed} 不是账本里保存的回执 {stored}',
  'check.inv6.ok': '每个 reserve 意图都有它唯一的回执，而且 Runner 看到了它',
  'check.inv6.notSuccess': '不是成功的运行：无需检查',

  'check.inv7.title': '运行在步数上限之内结束',
  'check.inv7.threw': '运行始终没有结束：Runner 在第 {step} 步抛出了异常，状态为 {status}',
  'check.inv7.noEnd': '走了 {steps} 步（上限 {bound}）仍没有到达终止状态：状态还是 {status}',
  'check.inv7.stuck': '走了 {steps} 步（上限 {bound}）仍没有到达终止状态：状态还是 {status}，{name} 在 {attempts} 次尝试之后仍然待定 —— 运行已经停滞不前',
  'check.inv7.ok': '{steps} 步后以 {status} 结束',

  // ── 场景预期的数据 ──
  'check.figure.title': '{figure}',
  'check.figure.asExpected': '{figure} 为 {actual}，与预期相符',
  'check.figure.differs': '{figure}：预期 {expected}，实际 {actual} —— {meaning}',
  'check.meaning.status': '运行的终止状态',
  'check.meaning.calls': '每次尝试算一次调用，重试也算在内',
  'check.meaning.ledger': '每个效果一行账本，所有任务都计入',
  'check.meaning.stock': '货架上还剩多少',
  'check.meaning.pending': '结束时仍待定的动作：结果未知时一直保留',
  'check.meaning.observations': 'Runner 记下了哪些工具的结果',
  'check.meaning.crashes': '运行从几次崩溃中恢复，每次都由事件日志重建出一个新的 Runner',
  'check.meaning.durability.backoff_waits': '重试之前 Runner 在虚拟时钟上等待了几次',
  'check.meaning.durability.backoff_ms': '每次重试前的退避等待，单位是虚拟毫秒 —— 同一个种子给出同样的等待',
  'check.meaning.durability.breaker': '断路器的状态变化，按先后顺序',
  'check.meaning.durability.refused_by_breaker': '断开的断路器在上线路之前拒绝的尝试（每次仍算一次调用、一次尝试）',
  'check.meaning.durability.dlq': '结束时每条死信记录的状态',
  'check.meaning.durability.replays': '用全新的 Runner、以同一个键回放的死信记录数',

  // ── 场景本身 ──
  'check.faults.title': '列出的故障全部触发',
  'check.faults.allFired': '列出的 {n} 个故障全部触发',
  'check.faults.broken': '场景失效：{faults} 从未触发 —— 运行根本没有走到那里，或者同一处的另一个故障先结束了这次尝试，所以那里什么也没有测到',
  'check.faults.stoppedBefore': '{faults} 从未触发：运行在那之前就停了（{early}）',
  'check.faults.leftPath': '{faults} 没有发生：这次运行在那之前就离开了场景设计的路径（换成 --runner reference 时它会发生，除非场景本身失效）',
  'check.crashCaught.title': '崩溃结束这一步',
  'check.crashCaught.message': '第 {step} 步，Runner 接住了模拟的崩溃（{how}）：崩溃意味着进程结束——step 只应处理 TransientError 和 ContractError，其他一切都应让它抛出去',
  'check.faults.threwAt': 'Runner 在第 {step} 步抛出了异常',
  'check.faults.neverEnded': '运行始终没有结束',
  'check.runnerError.title': 'Runner 没有抛出异常',
  'check.runnerError.message': 'Runner 在第 {step} 步抛出了 {name}：{message}',

  // ── 实验的数据 ──
  'check.lab.asExpected': '{key} = {actual}，与预期相符',
  'check.lab.noSuchFigure': '预期 {key} = {expected}，但这次运行没有这项数据（已有：{figures}）',
  'check.lab.differs': '预期 {key} = {expected}，实际 {actual}',
  'check.lab.differsMeaning': '预期 {key} = {expected}，实际 {actual} —— {meaning}',
} as const;
