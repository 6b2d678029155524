/** faultlab 的临时文件夹建不出来时（src/core/tempDir.ts）。 */
export const tempDir = {
  'tempDir.cannotMake': '无法在 {base}（系统的临时文件夹；可设置 TMPDIR 更换）中创建临时文件夹：{reason}',
  'error.named': '{name}: {message}',
  'tempDir.stopping': '进程正在退出：它的临时文件夹已被删除',
} as const;
