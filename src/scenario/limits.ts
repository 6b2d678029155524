/**
 * The bounds on what a scenario file may ask of faultlab. Every one keeps the work of loading and running a
 * file bounded whatever the file says, and each is far above what a real scenario needs (the shipped ones
 * are under 3 KB, at most 5 levels deep, with no alias and at most 10 script steps). A file past a limit is
 * refused with a message that names the limit; the README lists them.
 */
import { message, type Param } from '../core/message.js';
import type { ScenarioCode } from './codes.js';

/** A scenario file is read whole; this bounds the parse (100 times the largest shipped scenario). */
export const MAX_FILE_BYTES = 256 * 1024;

/** YAML aliases (`*name`) in one file; a "billion laughs" needs many of them nested. */
export const MAX_ALIASES = 100;

/** Nested maps and lists; the parsers and every walk over the data are recursive. */
export const MAX_DEPTH = 32;

/** Values once every alias is expanded: what validation, copies and JSON of the data would cost. */
export const MAX_VALUES = 100_000;

/** Steps of a scripted policy (`policy.script`): the schema's maxItems says the same. */
export const MAX_SCRIPT_STEPS = 1000;

/** `1 MiB`, `256 KiB`, `900 bytes`: a size the way a person reads it. */
export function formatBytes(bytes: number): Param {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return message<ScenarioCode>('scenario.bytes', { count: bytes.toLocaleString('en-US') });
}
