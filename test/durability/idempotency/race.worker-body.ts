import { parentPort, workerData } from 'node:worker_threads';
import { VirtualClock } from '../../../src/core/clock.js';
import { IdempotencyStore } from '../../../src/durability/idempotency/IdempotencyStore.js';
import { openDatabase } from '../../../src/core/storage.js';

/** One racer: its own thread, its own connection; waits for the starting gun, then claims every key. */
const { path, keys, name, gun } = workerData as { path: string; keys: string[]; name: string; gun: SharedArrayBuffer };
const store = new IdempotencyStore({ db: openDatabase(path, { shared: true }), clock: new VirtualClock() });
const flag = new Int32Array(gun);
Atomics.add(flag, 1, 1);
Atomics.wait(flag, 0, 0);
parentPort?.postMessage(keys.map((key) => store.checkAndRecord(key, { claimedBy: name }).kind));
