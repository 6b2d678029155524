/**
 * 课堂断言（src/classroom）：老师自己的测试里 `expectRun(run)…` 失败时说的话——先是标题（预期什么、实际发生了
 * 什么），再是评分器对这次运行的解读。
 */
export const classroom = {
  'classroom.noInvariant': 'toHoldInvariants：没有不变量 {name}（已知的有：{known}）',
  'classroom.endWith': '预期运行以 {status} 结束，实际以 {actual} 结束',
  'classroom.noState': '根本没有状态',
  'classroom.calls': '预期 {calls} 次调用（每次尝试算一次调用，重试也算在内），实际这次运行的调用次数是 {actual}',
  'classroom.noCalls': '零',
  'classroom.ledgerRows': '预期账本有 {rows} 行（每个效果一行，所有任务都计入），实际账本有 {actual} 行',
  'classroom.stock': '预期货架上剩 {available} 个 {item}，但{got}',
  'classroom.stock.noItem': '库存里没有 {item} 这件器材',
  'classroom.stock.left': '实际剩 {n} 个',
  'classroom.pending': '预期结束时{expected}，实际运行结束时{actual}',
  'classroom.pending.none': '没有待定动作',
  'classroom.pending.some': '{name} 仍待定',
  'classroom.invariants': '预期{which}成立，但有 {n} 个被打破：\n{lines}',
  'classroom.invariants.every': '每个不变量都',
  'classroom.invariants.some': '不变量 {names} ',
  'classroom.pass': '预期场景通过，但有 {n} 项检查失败：\n{lines}',
  'classroom.failedCheck': '  ✘ {title}：{message}',
  'classroom.runnerArg': '<导出 {runner} 的文件>',
  'classroom.headline': '{scenario}（{runner}）：{headline}',
  'classroom.firstProblem': '第一个问题：{problem}',
  'classroom.syncClass': 'runScenario：{name} 的 step 是同步的（学习者的写法）：请改为传入它的文件（runScenario(id, { runner: "path/to/LearnerRunner.ts" })），它会像评分器那样在自己的盒子里运行',
} as const;
