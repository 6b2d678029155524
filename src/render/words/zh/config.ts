/**
 * 持久性配置的取值超出范围（src/durability：ConfigError 与 config/fields.ts 的检查）：`字段 必须是……，
 * 得到的是……`。字段是 YAML 中的点分路径。每种语言的消息都以“字段 + 一个空格”开头：实验的输入错误在那里
 * 截断，把其余部分显示在该字段所在的行（src/labs/ScenarioInputError.ts）。
 */
export const config = {
  'config.mustBe': '{field} 必须是{allowed}，得到的是 {given}',
  'config.mustBe.atField': '必须是{allowed}，得到的是 {given}',
  'config.missing': '空（缺少这个字段）',
  'config.integer': '整数',
  'config.number': '数',
  'config.openClosed': ' ({low}, {high}] 区间内的{kind}',
  'config.closed': ' [{low}, {high}] 区间内的{kind}',
  'config.bounded': '{bounds}的{kind}',
  'config.bound.above': '大于 {n} ',
  'config.bound.atLeast': '不小于 {n} ',
  'config.bound.atMost': '不大于 {n} ',
  'config.bound.and': '{first}且{second}',
  'config.nonEmptyString': '非空字符串',
  'config.boolean': ' true 或 false',
  'config.errorCodes': '错误码列表（每项都是非空字符串）',
  'config.oneOf': ' {allowed} 之一',
  'config.mapping': '映射（“键: 值”形式的各行）',
  'config.knownField': '已知字段之一（{known}）',
  'config.readableYaml': '可读取的 YAML 文件',
  'config.topLevel': '（顶层）',
  'config.breakerWindow': ' [1, window_size = {window}] 区间内的整数（{window} 个结果的窗口永远凑不到 {min} 个，断路器就永远不会断开）',
} as const;
