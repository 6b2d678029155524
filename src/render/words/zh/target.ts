/**
 * 要运行的东西拿不到时：`--runner` 指的变异体、文件或 Runner 类不存在（src/runner/load.ts、
 * src/sim/target.ts），以及保留的文件夹里没有运行留下的数据库（src/sim/keptDeadLetters.ts）。
 */
export const target = {
  'target.noSuchFile': '没有这个文件：{file}',
  'target.noRunnerClass': '{file}：找不到 Runner 类（带 step(state) 方法的类，或带 claim、finish、sweep 的 worker 类）；它导出的是 {found}',
  'target.exportsNothing': '空（什么也没导出）',
  'target.noSuchMutant': '{name}：没有这个变异体（已有的：{known}）',
  'target.noSuchMutantNamed': '没有这个变异体：mutant:{name}',
  'target.noSuchRunnerFile': '{label}：没有这个文件：{file}（可用 reference、learner、mutant:NAME，或导出 Runner 类的 .ts/.js 文件的路径）',
  'target.noEventsDb': '{dir} 中没有 events.db（要保留一次运行的数据库，请用：faultlab run SCENARIO --keep-db {dir}）',
} as const;
