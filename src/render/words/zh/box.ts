/** 学习者的隔离箱（src/box）收到的、以及关于它的话：它交给评测方的值、它的隔离墙。 */
export const box = {
  'box.value.notObject': '{field} 不是对象',
  'box.value.wrong': '{field} 不是{expected}',
  'box.value.aString': '字符串',
  'box.value.aCount': '非负整数',
  'box.value.nullOrObject': 'null 或对象',
  'box.value.tooDeep': '{field} 嵌套超过 {max} 层',
  'box.value.stepReturned': 'step 返回的状态 faultlab 无法接受：{problem}',
  'box.value.call': '{call} 收到的值 faultlab 无法接受：{problem}',
  'box.value.notSendable': 'step 返回的状态无法发给评测方：{why}',
  'box.shipped.title': '{file} 是 faultlab 自带的 Runner，不是学习者自己的',
  'box.shipped.reference': '{file} 交上来的是 faultlab 的 ReferenceRunner（src/runner/ReferenceRunner.ts）——重新导出、继承或从包里取来——而不是自己写的 step：不予评分',
  'box.shipped.mutant': '{file} 交上来的是 faultlab 的变异体之一（src/mutants/，故意写错的 Runner），而不是自己写的 step：不予评分',
} as const;
