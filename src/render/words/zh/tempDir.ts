/** faultlab 的临时文件夹建不出来时（src/core/tempDir.ts）。 */
export const tempDir = {
  'tempDir.cannotMake': '无法在 {base}（系统的临时文件夹；可设置 TMPDIR 更换）中创建临时文件夹：{reason}',
  'error.named': '{name}: {message}',
  'core.list': '{first}、{rest}',
  'tempDir.stopping': '进程正在退出：它的临时文件夹已被删除',
  'core.diskFull': '{path} 所在的设备没有剩余空间：请腾出一些空间，或把 TMPDIR 设为另一设备上的文件夹；此后的内容都没有评判',
} as const;
