/**
 * One message at a time between the grader and a learner's process: JSON, prefixed by its length (4 bytes,
 * little-endian), over two FIFOs opened as ordinary blocking files. Both sides read and write synchronously,
 * so they take turns: a side that waits for the other's answer blocks in `read` until it comes — or until the
 * other side's end closes (the process died, or the grader killed it), which ends the wait with ChannelClosed.
 */
import { closeSync, readSync, writeSync } from 'node:fs';
import { t } from '../core/i18n/index.js';

/** Larger frames are refused: a runner's state is a few kilobytes, and a bogus length must not make us allocate. */
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;

/** The other side is gone (end of file, a broken pipe) or broke the framing. */
export class ChannelClosed extends Error {
  override readonly name = 'ChannelClosed';
}

const RETRY_CODES = new Set(['EINTR', 'EAGAIN']);

function retrying<T>(io: () => T): T {
  for (;;) {
    try {
      return io();
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (RETRY_CODES.has(code)) continue;
      if (code === 'EPIPE' || code === 'EBADF') throw new ChannelClosed(`the other side closed the channel (${code})`);
      throw error;
    }
  }
}

export class FrameChannel {
  readonly #in: number;
  readonly #out: number;
  readonly #head = Buffer.alloc(4);
  #open = true;

  /** `inFd` and `outFd`: blocking descriptors (a FIFO opened with fs.openSync is one). */
  constructor(inFd: number, outFd: number) {
    this.#in = inFd;
    this.#out = outFd;
  }

  send(message: unknown): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    if (body.length > MAX_FRAME_BYTES) throw new RangeError(`a message of ${body.length} bytes is over the limit of ${MAX_FRAME_BYTES}`);
    const frame = Buffer.allocUnsafe(4 + body.length);
    frame.writeUInt32LE(body.length, 0);
    body.copy(frame, 4);
    let written = 0;
    while (written < frame.length) written += retrying(() => writeSync(this.#out, frame, written, frame.length - written));
  }

  /** The next message; blocks until it has come whole. */
  receive(): unknown {
    this.#fill(this.#head);
    const length = this.#head.readUInt32LE(0);
    if (length > MAX_FRAME_BYTES) throw new ChannelClosed(t('grade.process.frameTooLong', { length, max: MAX_FRAME_BYTES }));
    const body = Buffer.allocUnsafe(length);
    this.#fill(body);
    try {
      return JSON.parse(body.toString('utf8')) as unknown;
    } catch {
      throw new ChannelClosed(t('grade.process.frameNotJson'));
    }
  }

  close(): void {
    if (!this.#open) return;
    this.#open = false;
    for (const fd of [this.#in, this.#out]) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    }
  }

  #fill(buffer: Buffer): void {
    let offset = 0;
    while (offset < buffer.length) {
      const n = retrying(() => readSync(this.#in, buffer, offset, buffer.length - offset, null));
      if (n === 0) throw new ChannelClosed('the other side closed the channel (end of file)');
      offset += n;
    }
  }
}
