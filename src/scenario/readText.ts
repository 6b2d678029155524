/**
 * Reading a scenario file without trusting it: only a regular file is opened (a FIFO would block the
 * read forever, /dev/zero would never end), only up to MAX_FILE_BYTES, and only UTF-8 text without NUL
 * bytes is passed on — a binary file is refused by where its first bad byte is, never echoed.
 */
import { closeSync, fstatSync, openSync, readSync, statSync, constants } from 'node:fs';
import { formatBytes, MAX_FILE_BYTES } from './limits.js';
import { message, type Message } from '../core/message.js';
import type { ScenarioCode } from './codes.js';

export type TextOrProblem = { text: string } | { problem: Message<ScenarioCode> };

const decoder = new TextDecoder('utf-8', { fatal: true });

function describeKind(stats: import('node:fs').Stats): Message<ScenarioCode> {
  if (stats.isDirectory()) return message('scenario.read.folder');
  if (stats.isFIFO()) return message('scenario.read.fifo');
  if (stats.isCharacterDevice()) return message('scenario.read.charDevice');
  if (stats.isBlockDevice()) return message('scenario.read.blockDevice');
  if (stats.isSocket()) return message('scenario.read.socket');
  return message('scenario.read.notRegular');
}

const notScenario = (stats: import('node:fs').Stats) => ({ problem: message('scenario.read.kind', { kind: describeKind(stats) }) });
const cannotRead = (error: unknown) => ({ problem: message('scenario.read.failed', { reason: reason(error) }) });

const reason = (error: unknown) => {
  const e = error as NodeJS.ErrnoException;
  return e.code !== undefined ? `${e.code} (${e.message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '')})` : String(e.message ?? error);
};

export function readScenarioText(file: string): TextOrProblem {
  let fd: number;
  try {
    // stat first: opening a FIFO for reading blocks until a writer comes, which may be never.
    const stats = statSync(file);
    if (!stats.isFile()) return notScenario(stats);
    if (stats.size > MAX_FILE_BYTES) return { problem: message('scenario.read.tooLarge', { size: formatBytes(stats.size), max: formatBytes(MAX_FILE_BYTES) }) };
    // O_NONBLOCK: should the path have been swapped for a FIFO since the stat, the open does not wait.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return cannotRead(error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return notScenario(stats);
    const buffer = Buffer.allocUnsafe(MAX_FILE_BYTES + 1); // not zeroed (a cost per file): only what was read is used
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > MAX_FILE_BYTES) return { problem: message('scenario.read.tooLargeStream', { max: formatBytes(MAX_FILE_BYTES) }) };
    }
    const bytes = buffer.subarray(0, length);
    const nul = bytes.indexOf(0);
    if (nul >= 0) return { problem: message('scenario.read.nul', { offset: nul }) };
    try {
      return { text: decoder.decode(bytes) };
    } catch {
      return { problem: message('scenario.read.notUtf8', { offset: firstBadUtf8(bytes) }) };
    }
  } catch (error) {
    return cannotRead(error);
  } finally {
    closeSync(fd);
  }
}

/** Offset of the first byte that does not begin or continue a valid UTF-8 sequence. */
function firstBadUtf8(bytes: Buffer): number {
  let lo = 0;
  let hi = bytes.length;
  // The longest valid prefix, found by halving: decoding is all-or-nothing.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (validPrefix(bytes.subarray(0, mid))) lo = mid;
    else hi = mid - 1;
  }
  // The prefix may end in a sequence that was begun but never finished: its first byte is the bad one.
  for (let back = 1; back <= 3 && lo - back >= 0; back += 1) {
    const byte = bytes[lo - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    return byte >= 0xc0 ? lo - back : lo;
  }
  return lo;
}

function validPrefix(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}
