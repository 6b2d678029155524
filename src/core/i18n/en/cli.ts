/** The command line's own words: usage, the language option. */
export const cli = {
  'cli.lang.bad': '--lang must be one of {langs}, got {given}',
} as const;
