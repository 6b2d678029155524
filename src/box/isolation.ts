/**
 * What walls a box gets on this machine. A submission may be malicious: it must not read other submissions or
 * held-out scenarios, write anything the grader or another submission uses, signal the grader, outlive its run
 * or reach the verdict. Where faultlab runs as root (as these machines and most CI do), a box is started
 * - as an unprivileged existing user (65534, "nobody", through util-linux's `setpriv`, groups cleared): it can
 *   write nothing of the checkout, the grader's outputs or another box's folder, and signal no process of ours;
 * - in its own PID namespace with its own /proc (`unshare --pid --fork --kill-child --mount-proc`): it sees no
 *   process but its own, so it cannot read the grader's command line, and everything it starts dies with it;
 * - with limits (`prlimit`): address space (a runaway Buffer, not only the V8 heap), processes and open files.
 * Its environment is empty but TMPDIR, and its channel is a socket it inherits. As another user, or where the
 * tools are missing, a box is still its own process group with those limits it can have: `describe` says once,
 * plainly, what isolation a command did not have.
 */
import { spawnSync } from 'node:child_process';
import { constants } from 'node:os';

/** The unprivileged user and group a box runs as when faultlab is root. */
export const BOX_UID = 65534;
export const BOX_GID = 65534;

/** Limits of a box: address space (bytes), processes and threads of its user, open files. */
const LIMITS = { asBytes: 1_500_000_000, nproc: 512, nofile: 256 } as const;

export interface Isolation {
  /** Runs as BOX_UID (its folder must be its own). */
  otherUser: boolean;
  /** Its own PID namespace and /proc. */
  pidNamespace: boolean;
  /** Its limits are set. */
  limits: boolean;
  /** The command that starts `argv` inside the walls. */
  wrap(argv: readonly string[]): { command: string; args: string[] };
  /** How the box ended, read through the walls: in a namespace its waiting shell exits with 128 + a signal's number. */
  exit(code: number | null, signal: NodeJS.Signals | null): { code: number | null; signal: NodeJS.Signals | null };
}

function works(command: string, args: string[]): boolean {
  const probe = spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 });
  return probe.status === 0;
}

let found: Isolation | null = null;

/** Probed once per process: which walls this machine lets faultlab build. */
export function isolation(): Isolation {
  if (found !== null) return found;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const prlimit = ['prlimit', `--as=${LIMITS.asBytes}`, `--nproc=${LIMITS.nproc}`, `--nofile=${LIMITS.nofile}`, '--'];
  // Its own death signal again: a change of user clears the one it inherited.
  const setpriv = ['setpriv', `--reuid=${BOX_UID}`, `--regid=${BOX_GID}`, '--clear-groups', '--pdeathsig=KILL'];
  // The namespace's first process is a shell that only waits: its init (pid 1) ignores signals it has no
  // handler for, so a box that is pid 1 could not even kill itself. The shell ends with 128 + the signal.
  const unshare = ['unshare', '--pid', '--fork', '--kill-child', '--mount-proc', '/bin/sh', '-c', '"$@"', 'sh'];
  // Whatever else it gets, a box dies with the process that started it: a harness killed outright (SIGKILL)
  // leaves no box running, even one in the middle of a step that never reads its channel again.
  const dies = ['setpriv', '--pdeathsig=KILL', '--'];
  const diesWithUs = works(dies[0]!, [...dies.slice(1), 'true']);
  const limits = works(prlimit[0]!, [...prlimit.slice(1), 'true']);
  const otherUser = root && works(setpriv[0]!, [...setpriv.slice(1), 'true']);
  const pidNamespace = root && works(unshare[0]!, [...unshare.slice(1), 'true']);
  const prefix = [...(diesWithUs ? dies : []), ...(pidNamespace ? unshare : []), ...(otherUser ? setpriv : []), ...(limits ? prlimit : [])];
  found = {
    otherUser,
    pidNamespace,
    limits,
    wrap(argv) {
      const all = [...prefix, ...argv];
      return { command: all[0]!, args: all.slice(1) };
    },
    exit(code, signal) {
      if (!pidNamespace || code === null || code <= 128) return { code, signal };
      const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0] as NodeJS.Signals | undefined;
      return name === undefined ? { code, signal } : { code: null, signal: name };
    },
  };
  return found;
}

/** What a box lacks here, in words for the one line a command prints about it (empty when it lacks nothing). */
export function missingWalls(walls: Isolation): Array<'other_user' | 'pid_namespace' | 'limits'> {
  return [...(walls.otherUser ? [] : ['other_user' as const]), ...(walls.pidNamespace ? [] : ['pid_namespace' as const]), ...(walls.limits ? [] : ['limits' as const])];
}
