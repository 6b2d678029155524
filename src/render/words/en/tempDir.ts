/** faultlab's temporary folders, when one cannot be made (src/core/tempDir.ts). */
export const tempDir = {
  'tempDir.cannotMake': "cannot make a temporary folder in {base} (the system's temporary folder; set TMPDIR to change it): {reason}",
  'error.named': '{name}: {message}',
  'tempDir.stopping': 'the process is stopping: its temporary folder is gone',
} as const;
