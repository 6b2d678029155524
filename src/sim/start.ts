/**
 * Where a run's two databases come from — the one seam for the harness's speed machinery. The protocol
 * (process.ts) only ever sees a Storage holding exactly the committed rows a run starts from; how they got
 * there is decided here:
 * - `fresh`: build them (files; or memory when nothing faster applies);
 * - `images`: memory, new connections on committed images of the starting databases (startingImages.ts),
 *   exactly as recovery opens new connections after a crash;
 * - `lent`: memory, connections kept between the runs of one thread, restored to the rows the run starts
 *   from (keptConnections.ts) — a checkpoint's rows, or the scenario's starting rows;
 * - `kept`: the databases a kept run left in a folder, as they are (`faultlab dlq --replay`).
 * A checkpoint's rows (a resumed run) are written into whatever was opened, unless lent connections hold them.
 */
import { FileStorage, openStorage, type Storage, type StorageKind } from '../core/storage.js';
import { writeToolRows } from '../inventory/rows.js';
import { createToolDatabase } from '../inventory/schema.js';
import { EVENT_SCHEMA, writeEventRows } from '../runner/EventStore.js';
import type { Scenario } from '../scenario/types.js';
import { startingContent, type Content, type KeptConnections } from './keptConnections.js';
import { startingImages } from './startingImages.js';

export type Start =
  | { kind: 'fresh' }
  | { kind: 'images' }
  | { kind: 'lent'; kept: KeptConnections }
  | { kind: 'kept'; dir: string };

export interface Opening {
  start: Start;
  storage: StorageKind;
  /** Keep the databases in this folder (claimed for this run alone; `--keep-db`). */
  keepDir?: string;
  /** A resumed run's committed rows: what the databases must hold instead of the scenario's starting rows. */
  content?: Content;
}

/** The start a run gets when its caller asks for nothing faster: images in memory, a fresh build in files. */
export function defaultStart(kind: StorageKind): Start {
  return kind === 'memory' ? { kind: 'images' } : { kind: 'fresh' };
}

/** Open a run's two databases, holding exactly the rows it starts from. */
export function openDatabases(scenario: Scenario, opening: Opening): Storage {
  const { start, content } = opening;
  const keepDir = opening.keepDir !== undefined ? { keepDir: opening.keepDir } : {};
  switch (start.kind) {
    case 'kept':
      return new FileStorage({ keepDir: start.dir, reuse: true });
    case 'lent':
      return openStorage('memory', { lent: start.kept.lend(content ?? startingContent(scenario.inventory)) });
    case 'images':
      return withContent(openStorage('memory', { from: startingImages(scenario.inventory), ...keepDir }), content);
    case 'fresh': {
      const storage = openStorage(opening.storage, keepDir);
      try {
        createToolDatabase(storage.toolDb, scenario.inventory);
        storage.eventsDb.exec(EVENT_SCHEMA);
        return withContent(storage, content);
      } catch (error) {
        storage.dispose();
        throw error;
      }
    }
  }
}

function withContent(storage: Storage, content: Content | undefined): Storage {
  if (content === undefined) return storage;
  writeToolRows(storage.toolDb, content.tool);
  writeEventRows(storage.eventsDb, content.events);
  return storage;
}

