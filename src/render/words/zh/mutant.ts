/** 变异体各自犯的错误（src/mutants/catalogue.ts），每个一句话，供探索报告显示。 */
export const mutant = {
  'mutant.new_key_per_attempt': '每次尝试都生成一个新的幂等键，于是在账本看来，每次重试都像一个新的意图',
  'mutant.version_before_ledger': '存储先查版本、后查账本，于是回复丢失之后的忠实重试被当作过期版本拒绝',
  'mutant.receipt_outside_transaction': '存储先提交库存的更新，再在第二个事务里写回执',
  'mutant.contract_error_retried': '把 ContractError 当作暂时性错误来重试',
  'mutant.no_budget_check': '尝试之前从不检查调用预算',
  'mutant.pending_dropped_after_transient': '遇到暂时性失败就忘掉待定动作，直接去做下一个决策',
  'mutant.exhausted_reissued_with_new_key': '重试用完时不停下来，而是换一个新键，把 reserve 当作新的意图重新发出',
  'mutant.observation_saved_before_commit': '在工具提交之前就把动作保存为“已观察”，于是两者之间的一次崩溃会丢掉效果，却留下“已完成”',
  'mutant.finish_not_saved': '只在内存里设置最终状态而不保存，于是恢复之后会把任务再做一遍',
  'mutant.waits_for_lost_reply': '崩溃时有一次尝试在途，恢复之后就永远等那个回复，而不去重试',
} as const;
