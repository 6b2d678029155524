/**
 * What a learner's step said, remembered by what it was told. A runner keeps nothing between steps (the contract,
 * docs/spec.md §8): a step is a function of the state it is handed and of the answers to its calls. So once the
 * box has answered a conversation — a step handed this state, its first call answered so, its second so, … — the
 * same conversation needs no box: the harness still carries out every call for real (the log, the tool, the
 * faults), and each next message of the learner's is the one it sent before for exactly the same words.
 *
 * Exploring a scenario runs a thousand schedules that share most of their steps; remembered, about four in five
 * of the box's messages need no round trip (measured on the solution's grade). What the memo knows it learned
 * from the learner's own box, and it is checked there again: when a conversation reaches a message the memo has
 * not seen, the box is told the whole conversation so far (in one write) and must say, message for message, what
 * was remembered before it answers the new one — a step that does not (it kept something, it is not a function
 * of what it is told) ends the memo, and the schedule is run again without it (`diverged`).
 *
 * Only for a runner shown to keep nothing between steps (src/explore/fork.ts checks it per scenario), only for
 * explored schedules, and never for a conversation in which the learner's code printed: what it printed belongs
 * to the run that printed it.
 */
import type { FromLearner, ToLearner } from './protocol.js';

interface Node {
  /** The box's next message after this conversation, normalised (instance and error numbers local); and its text. */
  answer?: { message: FromLearner; text: string };
  /** What the harness said next, by its text. */
  next?: Map<string, Node>;
}

export class ConversationMemo {
  readonly #root: Node = {};
  /** A box told a remembered conversation said something else: nothing more is served from this memo. */
  diverged = false;
  /** Messages served without the box, and those the box had to answer. */
  hits = 0;
  misses = 0;

  /** The node after `from` (the root: a conversation's start) once the harness said `said`. */
  after(from: Node | null, said: string): Node {
    const node = from ?? this.#root;
    node.next ??= new Map();
    let next = node.next.get(said);
    if (next === undefined) node.next.set(said, (next = {}));
    return next;
  }
}

export type MemoNode = Node;

/** The text a harness message is known by: its instance left out, an error's number as its place in the conversation. */
export function saidText(message: ToLearner, refs: readonly number[]): string {
  switch (message.t) {
    case 'step':
      return `S${JSON.stringify(message.state)}`;
    case 'build':
      return `B${message.leaseMs ?? ''}`;
    case 'reply':
      if (message.ok) return `R${JSON.stringify(message)}`;
      return `R${JSON.stringify({ ...message, error: { ...message.error, ref: refs.indexOf(message.error.ref) } })}`;
    default:
      return `?${JSON.stringify(message)}`;
  }
}

/** A box's message as remembered: no instance, an error's number as its place in the conversation; null: it cannot be. */
export function normalised(message: FromLearner, refs: readonly number[]): FromLearner | null {
  if (message.out !== undefined || message.cut !== undefined) return null; // what it printed is that run's
  if (message.t === 'call') return { ...message, instance: 0 };
  if (message.t === 'threw' && message.ref !== undefined) {
    const local = refs.indexOf(message.ref);
    return local < 0 ? null : { ...message, ref: local };
  }
  return message;
}

/** A remembered message made this conversation's: its instance, its error's number. */
export function denormalised(message: FromLearner, instance: number, refs: readonly number[]): FromLearner {
  if (message.t === 'call') return { ...message, instance };
  if (message.t === 'threw' && message.ref !== undefined) return { ...message, ref: refs[message.ref]! };
  return message;
}

/** The message that ends a conversation (a build's or a step's). */
export function ends(message: FromLearner): boolean {
  return message.t === 'built' || message.t === 'returned' || message.t === 'threw';
}
