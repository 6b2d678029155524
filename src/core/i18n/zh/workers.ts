/** 多个工作进程（docs/spec.md §10–12）：轨迹里队列的用语、工作进程的故障、新的不变量。术语见 GLOSSARY.md。 */
export const workers = {
  // ── 工作进程的故障打在哪里 ──
  'workers.point.anyWorker': '任意工作进程',
  'workers.point.claimReply': '在它认领的回复上',
  'workers.point.claimed': '刚拿到授予之后',
  'workers.point.finish': '在它结束任务之前',
  'workers.point.saved': '{event}之后',
  'workers.point.anEvent': '某个已保存的事件',
  'workers.point.request': '{request}发出之前',
  'workers.point.aRequest': '某个请求',
  'workers.point.ofGrant': '（第 {n} 次授予）',
  'trace.faultNote.worker_pause': '工作进程停住了（一次 GC 停顿，一个 SIGSTOP）：醒来后它会从这里接着做，仿佛时间没有流逝',
  'trace.faultNote.worker_crash': '工作进程中断：它的连接关闭，没有提交的都被回滚',
  'trace.faultNote.lease_expires': '工作进程在读到的与要写的之间停在这里，直到它的租约过期、任务交给了别人',
  'trace.faultNote.heartbeat_starved': '工作进程还在干活，但它的心跳得不到执行：没有谁续它的租约',
  'trace.faultNote.claim_reply_lost': '认领已经提交了授予；回复在返回途中丢失',
  'workers.fault.forMs': '{kind} {ms} 毫秒（{point}）',
} as const;
