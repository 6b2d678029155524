/**
 * The messages of src/core: a temporary folder that cannot be made, a disk with no space left, and an error as
 * `Name: message` (its message one of faultlab's). The catalogues (src/render/words) word them.
 */
export const CORE_CODES = ['tempDir.cannotMake', 'tempDir.stopping', 'core.diskFull', 'error.named', 'core.list'] as const;

export type CoreCode = (typeof CORE_CODES)[number];
