/** 命令行自身的话：用法、语言选项。 */
export const cli = {
  'cli.lang.bad': '--lang 只能是 {langs} 之一，得到的是 {given}',
} as const;
