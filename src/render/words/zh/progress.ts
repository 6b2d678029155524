/**
 * 全班评分的进度（src/grade/reporters/terminal.ts 的 renderProgress*）：一开始就说出的第一行，之后是已评了几份、
 * 其余的大约还要多久——在终端里是一行原地刷新的进度，在日志里是每份提交那一行前面的前缀。
 */
export const progress = {
  'progress.start.one': '正在评分 {n} 份提交，同时评 {lanes} 份',
  'progress.start.other': '正在评分 {n} 份提交，同时评 {lanes} 份',
  'progress.done': '已评 {done}/{total} 份',
  'progress.left': '预计还需约 {time}',
  'progress.seconds': '{n} 秒',
  'progress.minutes': '{n} 分钟',
} as const;
