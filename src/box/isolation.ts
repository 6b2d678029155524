/**
 * What walls a box gets on this machine. A submission may be malicious: it must not read other submissions or
 * held-out scenarios, write anything the grader or another submission uses, signal the grader, outlive its run
 * or reach the verdict. Where faultlab runs as root (as these machines and most CI do), a box is started
 * - in namespaces of its own (util-linux's `unshare`): a PID namespace, so it sees no process but its own (not
 *   the grader's command line) and everything it starts dies with it; a mount namespace; no network; its own IPC;
 * - in a root of its own (`chroot` into a skeleton whose every file is a read-only bind mount, set up by one
 *   `mount -a` from a table the harness writes): it sees the node binary and its libraries, its host and its
 *   compiled runner, /dev/null and friends, its own /proc and a private /tmp of TMP_BYTES in memory — nothing
 *   of the checkout, the class, the scenarios or the disk, so it can neither read nor write nor fill them;
 * - as a user of its own, a uid no account has and no other box shares (so one box's processes cannot count
 *   against another's process limit, nor signal it);
 * - with limits (`prlimit`): address space (a runaway Buffer, not only the V8 heap), processes and open files.
 *   (Not a lower priority: on a machine busy with other work a niced box gets a sliver of the processor, and
 *   its time limit counts only the time it has the ball — Box.ts — so a spinning classmate costs no one a verdict.)
 * Its environment is TMPDIR alone, and its channel is a socket it inherits. Where those tools cannot be used
 * (not root, no mount namespace), a box is what it can be — another user (`setpriv`, nobody) where that works,
 * its own process group, the limits it can have — and `missingWalls` says once, plainly, what it did not have.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { makeTempDir, removeTempDir, sharedTempDir } from '../core/tempDir.js';

/** The unprivileged user and group of a box where it cannot have a root of its own (setpriv's "nobody"). */
export const BOX_UID = 65534;
export const BOX_GID = 65534;

/**
 * A box with a root of its own runs as a uid no account has: BOX_UID_BASE + a number unique to the box among
 * those this process runs at once (by process, thread and box), below 2^31 for every tool that reads it signed.
 */
const BOX_UID_BASE = 1_000_000_000;

/**
 * Limits of a box: address space (bytes; a box's node reserves ~1 GB of it before the learner's code runs, so a
 * box has ~450 MB to allocate, heap and Buffers together), processes and threads of its user (node needs ~11),
 * open files, and the largest file it may write.
 */
const LIMITS = { asBytes: 1_500_000_000, nproc: 32, nofile: 256, fsizeBytes: 16 * 1024 * 1024 } as const;
/** Its /tmp, in memory: a learner's scratch space, never the grader's disk. */
const TMP_BYTES = 16 * 1024 * 1024;

/** The files a box is started on, as the harness has them. */
export interface BoxFiles {
  /** The box's folder (its table of mounts goes there; where it has no root of its own, its TMPDIR). */
  dir: string;
  host: string;
  runner: string;
}

export interface Isolation {
  /** Runs as another user than faultlab (one of its own with ownRoot, else BOX_UID). */
  otherUser: boolean;
  /** Its own PID namespace and /proc. */
  pidNamespace: boolean;
  /** Its own root: it sees only its own files and a private /tmp (and has no network). */
  ownRoot: boolean;
  /** Its limits are set. */
  limits: boolean;
  /**
   * How to start a box on `files`: node with `nodeArgs`, then the host, the runner and `hostArgs`. Where the
   * box runs as BOX_UID in the real file system, its folder and files are made its own here.
   */
  start(files: BoxFiles, nodeArgs: readonly string[], hostArgs: readonly string[]): { command: string; args: string[]; env: Record<string, string> };
  /** Where the box sees its compiled runner that the harness has at `path` (its source map is written for there). */
  runnerSeenAt(path: string): string;
  /** How the box ended, read through the walls: in a namespace its waiting shell exits with 128 + a signal's number. */
  exit(code: number | null, signal: NodeJS.Signals | null): { code: number | null; signal: NodeJS.Signals | null };
}

function works(command: string, args: string[]): boolean {
  const probe = spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 });
  return probe.status === 0;
}

/** Absolute paths of the tools a root of its own needs, or null when one is missing. */
function tools(): { mount: string; chroot: string; prlimit: string; env: string } | null {
  const found = spawnSync('/bin/sh', ['-c', 'for tool in mount chroot prlimit env; do command -v "$tool" || exit 1; done'], { encoding: 'utf8', timeout: 10_000 });
  const paths = (found.stdout ?? '').split('\n').filter((line) => line.startsWith('/'));
  if (found.status !== 0 || paths.length !== 4) return null;
  const [mount, chroot, prlimit, env] = paths as [string, string, string, string];
  return { mount, chroot, prlimit, env };
}

/** The shared libraries node loads, as the dynamic loader opens them (its own listing: no ldd needed). */
function nodeLibraries(): string[] {
  const listed = spawnSync(process.execPath, [], { env: { LD_TRACE_LOADED_OBJECTS: '1' }, encoding: 'utf8', timeout: 10_000 });
  if (listed.status !== 0) return [];
  return (listed.stdout ?? '').split('\n').flatMap((line) => {
    const path = /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line)?.[1];
    return path === undefined ? [] : [path];
  });
}

/** A path as a mount table (fstab) writes it: white space and backslashes in octal. */
const fstabPath = (path: string) => path.replace(/[\\\s]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);

/** Where things are inside a box's own root. */
const INSIDE = { node: '/node', host: '/box/host.mjs', runner: '/box/runner.mjs', tmp: '/tmp', proc: '/proc' } as const;
const DEVICES = ['/dev/null', '/dev/zero', '/dev/urandom', '/dev/random'];

/** A number for each box this thread starts, so that boxes alive at once have uids of their own. */
let boxes = 0;
const threadId = () => process.getBuiltinModule('node:worker_threads').threadId;
const uidOfNextBox = () => BOX_UID_BASE + (process.pid % 10_000) * 100_000 + (threadId() % 100) * 1000 + (boxes++ % 1000);

/**
 * The skeleton of a box's root, made once per process in its temporary folder: empty folders and files, each a
 * mount point. A box mounts its own files on it in its own mount namespace; the skeleton itself stays empty.
 */
function skeleton(root: string, files: readonly string[]): void {
  mkdirSync(root, { recursive: true });
  chmodSync(root, 0o755); // the box's user passes through its root, and reads nothing in it but what is mounted there
  for (const dir of [INSIDE.tmp, INSIDE.proc]) mkdirSync(join(root, dir), { recursive: true });
  for (const file of files) {
    mkdirSync(join(root, dirname(file)), { recursive: true });
    writeFileSync(join(root, file), '');
  }
}

/** What was found about this machine, once per process (its threads read it from the process's folder). */
interface Probed {
  diesWithUs: boolean;
  /** A root of its own can be built: the tools (absolute paths), the system files node needs, the skeleton. */
  own: { tools: NonNullable<ReturnType<typeof tools>>; system: string[]; root: string } | null;
  /** Without one: what the machine allows. */
  limits: boolean;
  otherUser: boolean;
  pidNamespace: boolean;
}

/** Whatever else it gets, a box dies with the process that started it (even one that never reads its channel again). */
const DIES_WITH_US = ['setpriv', '--pdeathsig=KILL', '--'];
/** The walls of a box without a root of its own. */
const FALLBACK = {
  prlimit: ['prlimit', `--as=${LIMITS.asBytes}`, `--nproc=${LIMITS.nproc * 16}`, `--nofile=${LIMITS.nofile}`, '--'],
  setpriv: ['setpriv', `--reuid=${BOX_UID}`, `--regid=${BOX_GID}`, '--clear-groups', '--pdeathsig=KILL'], // its death signal again: a change of user clears it
  unshare: ['unshare', '--pid', '--fork', '--kill-child', '--mount-proc', '/bin/sh', '-c', '"$@"', 'sh'],
};

/** A box with a root of its own: how to start one (src/box/Box.ts), from what the probe found. */
function ownRootStart(own: NonNullable<Probed['own']>): Isolation['start'] {
  const { tools: found, system, root } = own;
  // The namespace's first process is a shell: it mounts the box's files from the table, starts the box and
  // waits (its init, pid 1, ignores signals it has no handler for, so a box that were pid 1 could not even kill
  // itself); it ends with the box's code, or 128 + the signal that ended it.
  const unshare = ['unshare', '--pid', '--fork', '--kill-child', '--mount', '--net', '--ipc', '/bin/sh', '-c', `${found.mount} -a -T "$1" || exit 125; shift; "$@"`, 'sh'];
  return (files, nodeArgs, hostArgs) => {
    const uid = uidOfNextBox();
    const bind = (from: string, to: string, options = 'bind,ro') => `${fstabPath(from)} ${fstabPath(join(root, to))} none ${options} 0 0`;
    const table = [
      bind(process.execPath, INSIDE.node),
      ...system.map((path) => bind(path, path)),
      ...DEVICES.map((path) => bind(path, path, 'bind')),
      bind(files.host, INSIDE.host),
      bind(files.runner, INSIDE.runner),
      `faultlab-tmp ${fstabPath(join(root, INSIDE.tmp))} tmpfs size=${TMP_BYTES},mode=0700,uid=${uid},gid=${uid},nosuid,nodev 0 0`,
      `proc ${fstabPath(join(root, INSIDE.proc))} proc nosuid,nodev,noexec 0 0`,
    ];
    const fstab = join(files.dir, 'fstab');
    writeFileSync(fstab, table.join('\n') + '\n');
    const prlimit = [found.prlimit, `--as=${LIMITS.asBytes}`, `--nproc=${LIMITS.nproc}`, `--nofile=${LIMITS.nofile}`, `--fsize=${LIMITS.fsizeBytes}`, '--'];
    const chroot = [found.chroot, `--userspec=${uid}:${uid}`, `--groups=${uid}`, root];
    const inBox = [INSIDE.node, ...nodeArgs, INSIDE.host, INSIDE.runner, ...hostArgs];
    const all = [...DIES_WITH_US, ...unshare, fstab, found.env, '-i', `TMPDIR=${INSIDE.tmp}`, ...prlimit, ...chroot, ...inBox];
    return { command: all[0]!, args: all.slice(1), env: {} };
  };
}

/** Whether a root of its own can be built here: the tools, the files node needs, and one box's node answering in it. */
function probeOwnRoot(shared: string): Probed['own'] {
  const found = tools();
  if (found === null) return null;
  const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;
  const system = [...new Set([...nodeLibraries(), '/etc/ld.so.cache'])].filter(isFile);
  const root = join(shared, 'root');
  skeleton(root, [INSIDE.node, INSIDE.host, INSIDE.runner, ...system, ...DEVICES]);
  const own = { tools: found, system, root };
  const probeDir = makeTempDir('box-probe');
  try {
    const { command, args } = ownRootStart(own)({ dir: probeDir, host: '/dev/null', runner: '/dev/null' }, ['--version'], []);
    const answer = spawnSync(command, args, { encoding: 'utf8', timeout: 10_000 });
    return answer.status === 0 && /^v\d+/.test(answer.stdout ?? '') ? own : null;
  } finally {
    removeTempDir(probeDir);
  }
}

function probe(shared: string): Probed {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const diesWithUs = works(DIES_WITH_US[0]!, [...DIES_WITH_US.slice(1), 'true']);
  const own = root && diesWithUs ? probeOwnRoot(shared) : null;
  const can = (argv: readonly string[]) => own === null && works(argv[0]!, [...argv.slice(1), 'true']);
  return {
    diesWithUs,
    own,
    limits: can(FALLBACK.prlimit),
    otherUser: root && can(FALLBACK.setpriv),
    pidNamespace: root && can(FALLBACK.unshare),
  };
}

/** The probe of this process, made by its first thread that needs it and read by the others (it costs a box's start). */
function probed(): Probed {
  const shared = sharedTempDir('box-walls');
  const file = join(shared, 'walls.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Probed;
  } catch {
    const found = probe(shared);
    const fresh = `${file}.${threadId()}`;
    writeFileSync(fresh, JSON.stringify(found));
    renameSync(fresh, file); // whole or not at all, for a thread reading it meanwhile
    return found;
  }
}

let found: Isolation | null = null;

/** Which walls this machine lets faultlab build (probed once per process). */
export function isolation(): Isolation {
  if (found !== null) return found;
  const walls = probed();
  const exit = (pidNamespace: boolean) => (code: number | null, signal: NodeJS.Signals | null) => {
    if (!pidNamespace || code === null || code <= 128) return { code, signal };
    const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0] as NodeJS.Signals | undefined;
    return name === undefined ? { code, signal } : { code: null, signal: name };
  };
  if (walls.own !== null) {
    found = { otherUser: true, pidNamespace: true, ownRoot: true, limits: true, start: ownRootStart(walls.own), runnerSeenAt: () => INSIDE.runner, exit: exit(true) };
    return found;
  }
  // Without a root of its own: the walls this machine allows, around a box that sees the real file system.
  const { diesWithUs, limits, otherUser, pidNamespace } = walls;
  const prefix = [...(diesWithUs ? DIES_WITH_US : []), ...(pidNamespace ? FALLBACK.unshare : []), ...(otherUser ? FALLBACK.setpriv : []), ...(limits ? FALLBACK.prlimit : [])];
  found = {
    otherUser,
    pidNamespace,
    ownRoot: false,
    limits,
    start(files, nodeArgs, hostArgs) {
      let host = files.host;
      if (otherUser) {
        // The box's user reads only its own folder: its host is copied there, and the folder and files are its own.
        host = join(files.dir, 'box-host.mjs');
        copyFileSync(files.host, host);
        for (const path of [files.dir, host, files.runner]) chownSync(path, BOX_UID, BOX_GID);
        // It reaches its folder through the process's own, which it may pass through but not list.
        chmodSync(dirname(files.dir), 0o711);
      }
      const all = [...prefix, process.execPath, ...nodeArgs, host, files.runner, ...hostArgs];
      return { command: all[0]!, args: all.slice(1), env: { TMPDIR: files.dir } };
    },
    runnerSeenAt: (path) => path,
    exit: exit(pidNamespace),
  };
  return found;
}

/** What a box lacks here, for the one line a command prints about it (empty when it lacks nothing). */
export function missingWalls(walls: Isolation): Array<'other_user' | 'pid_namespace' | 'own_root' | 'limits'> {
  return [
    ...(walls.otherUser ? [] : ['other_user' as const]),
    ...(walls.pidNamespace ? [] : ['pid_namespace' as const]),
    ...(walls.ownRoot ? [] : ['own_root' as const]),
    ...(walls.limits ? [] : ['limits' as const]),
  ];
}
