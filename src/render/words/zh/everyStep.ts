/** 评分更敏锐（issue 20）：关于 Runner 状态的规则在每一步之后都检查；受评集合里契约的新分支；从与参考实现的第一处分歧说出学习者自己的错误。术语见 GLOSSARY.md。 */
export const everyStep = {
  // ── 授权的故障 ──
  'trace.faultNote.revoke_permission': '任务调用这个工具的权限被撤销了：这次尝试此前已经授权，之后的每一次都会被拒绝',
  // ── 不变量 2，每一步之后：每个待定动作的尝试次数 ──
  'check.inv2.attemptsOvercounted':
    '第 {step} 步把 {name} 作为第 {attempt} 次尝试发出，可自它准备好以来只做过 {made} 次尝试：attempts 数的是这个待定动作自己的尝试 —— 准备一个新动作时要从 0 重新开始',
  'check.inv2.retriedPastLimit':
    '第 {step} 步在 {failures} 次 TransientError 之后又尝试了 {name}，而 max_retries 是 {max}：重试次数用完之后，运行以 retry_exhausted 结束',
  // ── 不变量 3，每一步之后：待定直到回答被记下 ──
  'check.inv3.stillPendingAfterAnswer':
    '第 {step} 步保存了 #{seq} {label}，工具已经回答了 {action}，它却仍然待定：记下回答的那一次保存里就要清掉 pending，否则在那次保存之后紧接着一次崩溃，就会把这个动作再发一遍',
  'check.inv3.droppedUnobserved':
    '第 {step} 步保存了 #{seq} {label}，{action} 已不再待定，可它的回答从没有被记下：待定动作要一直保留，直到记下工具的回答 —— 效果可能已经发生',
  // ── 学习者自己的错误，各有其名 ──
  'grade.mistake.noLine': '它的调用栈里没有你文件的行号',
  'grade.mistake.finishStatusChanged.title': 'finish 保存的状态不是策略给的那个',
  'grade.mistake.finishStatusChanged':
    '第 {step} 步策略以 {policy} 结束，step 保存的 #{seq} 却是 {status}：finish 以策略给出的状态（succeeded 或 gave_up）结束运行，从来不由 step 自己挑',
  'grade.mistake.attemptsNotReset.title': '新动作的尝试次数没有归零',
  'grade.mistake.attemptsNotReset':
    '第 {step} 步 {name} 是它的第 {made} 次尝试，却作为第 {attempt} 次尝试发出：它准备好时 attempts 是 {carried}，那是上一个动作的计数 —— attempts 数的是待定动作自己的尝试，所以准备一个新动作时要从 0 重新开始',
  'grade.mistake.notReauthorised.title': '重试之前没有重新授权',
  'grade.mistake.notReauthorised':
    '任务调用 {name} 的权限被撤销之后，{what} 在第 {step} 步仍然发了出去：每次尝试之前都要给待定动作重新授权 —— 键不是权限，重试也不会继承权限',
  'grade.mistake.transientByMessage.title': '按消息文字识别 TransientError，第 {step} 步把它抛了出去',
  'grade.mistake.transientByMessage':
    'step 在第 {step} 步（{where}）抛出了 TransientError {message}，可它此前重试过 {handled}：值得重试的失败要按类别识别（isTransientError），不要按消息文字 —— 断路器的 circuit_open 也是一种',
  'grade.mistake.transientThrown.title': '第 {step} 步把 TransientError 抛出了 step',
  'grade.mistake.transientThrown':
    'step 在第 {step} 步（{where}）抛出了 TransientError {message}：TransientError 是值得重试的失败，不是 bug —— 保留待定动作，保存 transient:<消息>，然后重试（重试次数用完时以 retry_exhausted 结束）',
  // ── 它们的提示阶梯 ──
  'hint.finishStatusChanged.question': '策略说的是别的状态，你的运行却以 succeeded 结束。finish 的状态该由谁定？',
  'hint.finishStatusChanged.rule': 'finish 动作带着运行结束时的状态：succeeded 或 gave_up（规则 2）。step 不评判任务，它只记下策略的决定。',
  'hint.finishStatusChanged.code': "用 finish 自己的状态结束：\n  if (action.kind === 'finish') return this.finalize(state, action.status);",
  'hint.attemptsNotReset.question': '动作还没失败 max_retries 次，你的重试就用完了。state.attempts 数的是谁的尝试？',
  'hint.attemptsNotReset.rule': 'attempts 数的是待定动作的尝试，第一次也算在内（规则 2）：新动作从 0 开始。calls 数的是整个任务，永不归零。',
  'hint.attemptsNotReset.code': "在准备动作的地方：\n  state.pending = this.prepare(task, action);\n  state.attempts = 0;\n  state.decisions += 1;\n  this.save(state, 'prepared');",
  'hint.notReauthorised.question': '任务失去权限之后，还有一次重试发了出去。你的 step 在什么时候给待定动作授权？',
  'hint.notReauthorised.rule': '决定时授权一次，每次尝试之前再授权一次（规则 5）：两次尝试之间权限可能被撤销，而幂等键不是权限。',
  'hint.notReauthorised.code': "就在请求之前，在 try 里面：\n  this.authorize(task, state.pending);\n  result = this.execute(state);",
  'hint.transientByMessage.question': '你的 step 重试了一些 TransientError，却把另一个抛了出去。它靠什么分辨哪些失败该重试？',
  'hint.transientByMessage.rule': 'TransientError 按类别识别，不按消息文字（规则 5）：unavailable、lost_reply 和断路器的 circuit_open 都值得重试；消息是写给人看的。',
  'hint.transientByMessage.code': "问它的类别：\n  if (isTransientError(error)) { … }",
  'hint.transientThrown.question': '你的 step 把一个 TransientError 抛出了 step。值得重试的失败是 bug 吗？',
  'hint.transientThrown.rule': 'TransientError 保留待定动作，保存为 transient:<消息>；只有 attempts > max_retries 时运行才以 retry_exhausted 结束（规则 5）。既不是 TransientError 也不是 ContractError 的，才往外抛。',
  'hint.transientThrown.code': "在 catch 里、ContractError 分支之前：\n  if (isTransientError(error)) {\n    if (state.attempts > task.max_retries) state.status = 'retry_exhausted';\n    return this.save(state, `transient:${error.message}`);\n  }",
  'grade.mistake.budgetAfterPrepare.title': '在 prepare 之后才检查预算，而不是之前',
  'grade.mistake.budgetAfterPrepare':
    '第 {step} 步保存了 #{seq} {label}，{action} 待定，可 calls {calls} 已经用完了 max_calls {max}：预算用完时，决定这一步要在准备任何动作之前就以 budget_exhausted 结束运行 —— 这时准备好的动作永远不会被尝试',
  'hint.budgetAfterPrepare.question': '你的运行以 budget_exhausted 结束，却还留着一个从没尝试过的待定动作。预算是在你的 step 准备它之前还是之后用完的？',
  'hint.budgetAfterPrepare.rule': '预算要检查两次（规则 2 和 3）：决定时、准备动作之前检查一次，每次尝试之前再检查一次。决定时预算已用完，运行就以 budget_exhausted 结束，没有待定动作，也不多算一个决策。',
  'hint.budgetAfterPrepare.code': "紧接在 finish 之后、prepare 之前：\n  if (state.calls >= task.max_calls) return this.finalize(state, 'budget_exhausted');\n  state.pending = this.prepare(task, action);",
} as const;
