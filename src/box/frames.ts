/**
 * One message at a time between the harness and a box: JSON, prefixed by its length (4 bytes, little-endian),
 * over the one socket the box inherits as its file descriptor 3 (it has no path to find). The box reads and
 * writes it synchronously (FrameChannel): it blocks in `read` until the harness answers — or until the harness's
 * end closes, which ends the wait with ChannelClosed and the box with it. The harness reads its end as a stream
 * (FrameReader) and never blocks: while a box thinks, the harness's event loop runs its timers.
 */
import { closeSync, readSync, writeSync } from 'node:fs';
import { codeText, message, type Message } from '../core/message.js';
import { printable } from '../scenario/ScenarioError.js';
import type { BoxCode } from './codes.js';

const say = (code: BoxCode, params?: Parameters<typeof message>[1]): Message<BoxCode> => message(code, params);

/** Larger frames are refused: a runner's state is a few kilobytes, and a bogus length must not make us allocate. */
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;
/**
 * What a box may send in one message: a state, a call's arguments, and what the learner printed (at most
 * MAX_OUTPUT_CHARS a run). The harness keeps every state of a run in its trace: a box must not make it keep gigabytes.
 */
export const MAX_BOX_FRAME_BYTES = 1024 * 1024;

/**
 * A frame's text holds a character a terminal would act on: a C0 control but the newline and the tab (JSON
 * writes those as \u00XX, \b, \f, \r), DEL, a C1 control, a line or paragraph separator (JSON writes those raw).
 */
const UNPRINTABLE = /\\u00[01][0-9a-f]|\\u007f|\\[bfr]|[\u007f-\u009f\u2028\u2029]/i;
const cleaned = (_key: string, value: unknown) => (typeof value === 'string' ? printable(value) : value);

/** The other side is gone (end of file, a broken pipe) or broke the framing. */
export class ChannelClosed extends Error {
  override readonly name = 'ChannelClosed';

  constructor(why: string | Message<BoxCode>) {
    super(codeText(why));
  }
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
  readonly #maxSend: number;
  #open = true;

  /** `inFd` and `outFd`: blocking descriptors (the same socket, inherited, for a box); `maxSend`: the longest frame the other side takes. */
  constructor(inFd: number, outFd: number, maxSend = MAX_FRAME_BYTES) {
    this.#in = inFd;
    this.#out = outFd;
    this.#maxSend = maxSend;
  }

  /** Throws, having written nothing, when the message cannot be encoded (JSON.stringify throws) or is too long. */
  send(message: unknown): void {
    const frame = encodeFrame(message, this.#maxSend);
    let written = 0;
    while (written < frame.length) written += retrying(() => writeSync(this.#out, frame, written, frame.length - written));
  }

  /** The next message; blocks until it has come whole. */
  receive(): unknown {
    this.#fill(this.#head);
    const length = this.#head.readUInt32LE(0);
    if (length > MAX_FRAME_BYTES) throw new ChannelClosed(message<BoxCode>('grade.process.frameTooLong', { length, max: MAX_FRAME_BYTES }));
    const body = Buffer.allocUnsafe(length);
    this.#fill(body);
    try {
      return JSON.parse(body.toString('utf8')) as unknown;
    } catch {
      throw new ChannelClosed(message<BoxCode>('grade.process.frameNotJson'));
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

/** A frame as bytes: what FrameChannel.send writes, for the harness's side to write on its stream. */
export function encodeFrame(message: unknown, max = MAX_FRAME_BYTES): Buffer {
  return encodeText(JSON.stringify(message), max);
}

/** A frame of a message already written as JSON. */
export function encodeText(json: string, max = MAX_FRAME_BYTES): Buffer {
  const body = Buffer.from(json, 'utf8');
  if (body.length > max) {
    const said = say('grade.process.frameTooLong', { length: body.length, max });
    throw Object.assign(new RangeError(codeText(said)), { said });
  }
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32LE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}

/**
 * The harness's side: chunks in, whole messages out, in order. A frame too long or not JSON breaks the channel
 * (`onBroken`): a box that writes something else is not listened to again.
 */
export class FrameReader {
  #pending: Buffer = Buffer.alloc(0);
  #broken = false;
  readonly #onMessage: (message: unknown) => void;
  readonly #onBroken: (why: Message<BoxCode>) => void;
  readonly #max: number;

  /** `max`: the longest frame taken from the other side (a box's are shorter than the harness's). */
  constructor(onMessage: (message: unknown) => void, onBroken: (why: Message<BoxCode>) => void, max = MAX_FRAME_BYTES) {
    this.#onMessage = onMessage;
    this.#onBroken = onBroken;
    this.#max = max;
  }

  push(chunk: Buffer): void {
    if (this.#broken) return;
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    while (this.#pending.length >= 4) {
      const length = this.#pending.readUInt32LE(0);
      if (length > this.#max) return this.#break(say('grade.process.frameTooLong', { length, max: this.#max }));
      if (this.#pending.length < 4 + length) return;
      const body = this.#pending.subarray(4, 4 + length);
      this.#pending = this.#pending.subarray(4 + length);
      let message: unknown;
      try {
        // Every string a box sends is made printable as it arrives (its error text, what it printed, its labels):
        // no escape code of a learner's reaches a teacher's terminal, whatever prints it later.
        const text = body.toString('utf8');
        message = UNPRINTABLE.test(text) ? JSON.parse(text, cleaned) : JSON.parse(text);
      } catch {
        return this.#break(say('grade.process.frameNotJson'));
      }
      this.#onMessage(message);
    }
  }

  #break(why: Message<BoxCode>): void {
    this.#broken = true;
    this.#pending = Buffer.alloc(0);
    this.#onBroken(why);
  }
}
