/** `faultlab run` 结尾的汇总表。 */
export const summary = {
  'summary.head.scenario': '场景',
  'summary.head.status': '状态',
  'summary.head.calls': '调用',
  'summary.head.ledger': '账本',
  'summary.head.stock': '库存',
  'summary.head.result': '结果',
  'summary.pass': '✔ 通过',
  'summary.broken': '✘ 场景失效',
  'summary.fail': '✘ 失败',
  'summary.tally': '{passed} 个通过，{failed} 个失败',
} as const;
