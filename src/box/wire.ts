/**
 * An error of the real objects as it crosses to a box (protocol.ts, WireError): the box throws it there as its own
 * kind, and the harness keeps the original under its number. Written once, for the box's calls (Box.ts) and for
 * the reference's transcripts (transcript.ts), which must say an error exactly as a box is told it.
 */
import { Crash } from '../core/crash.js';
import { saidOf } from '../core/message.js';
import { isContractError, isTransientError } from '../inventory/errors.js';
import type { WireError } from './protocol.js';

function thrownInfo(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

export function wireError(ref: number, error: unknown): WireError {
  const { name, message } = thrownInfo(error);
  const said = saidOf(error);
  if (error instanceof Crash) return { ref, kind: 'crash', name, message, point: error.point, ...(said !== undefined ? { said } : {}) };
  if (isTransientError(error)) return { ref, kind: 'transient', name, message, definite: error.definite };
  if (isContractError(error)) return { ref, kind: 'contract', name, message, code: error.code, detail: error.detail };
  const code = typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : undefined;
  return { ref, kind: 'other', name, message, ...(code !== undefined ? { code } : {}) };
}
