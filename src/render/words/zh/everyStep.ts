/** 评分更敏锐（issue 20）：关于 Runner 状态的规则在每一步之后都检查；受评集合里契约的新分支；从与参考实现的第一处分歧说出学习者自己的错误。术语见 GLOSSARY.md。 */
export const everyStep = {
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
} as const;
