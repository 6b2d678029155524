/**
 * Each message handled on a turn of the event loop of its own, in the order they came. A port hands over
 * all its queued messages in one go, and handled back to back they would leave the event loop no turn —
 * while a crash's committed image (a buffer SQLite allocated) is freed only on a later turn. The pool keeps
 * several batches queued at a worker (pool.ts), so the worker takes them one turn at a time.
 */
/** An async `handle` is awaited before the next message starts: a thread's messages never overlap. */
export function onItsOwnTurn<T>(handle: (message: T) => void | Promise<void>): (message: T) => void {
  const waiting: T[] = [];
  let scheduled = false;
  const schedule = () => {
    if (scheduled || waiting.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      void (async () => {
        try {
          await handle(waiting.shift()!);
        } finally {
          scheduled = false;
          schedule();
        }
      })();
    });
  };
  return (message: T) => {
    waiting.push(message);
    schedule();
  };
}
