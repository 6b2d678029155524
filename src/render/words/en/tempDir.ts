/** faultlab's temporary folders, when one cannot be made (src/core/tempDir.ts). */
export const tempDir = {
  'tempDir.cannotMake': "cannot make a temporary folder in {base} (the system's temporary folder; set TMPDIR to change it): {reason}",
  'error.named': '{name}: {message}',
  'core.list': '{first}, {rest}',
  'tempDir.stopping': 'the process is stopping: its temporary folder is gone',
  'core.diskFull': 'no space left on the device of {path}: free some, or set TMPDIR to a folder on another device; nothing was judged past this point',
} as const;
