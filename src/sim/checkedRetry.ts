/**
 * The runner's client for the keyless service, when it asks before it resends (docs/spec.md §14): a retry of
 * a `charge` — any attempt after the first, a recovery's included — first sends `charge_status` with the same
 * reference, and resends the charge only if the service has none. The runner's step is the chapter's: it keeps
 * the charge pending and retries it with the same reference; this client is what makes that retry safe.
 *
 * The guarantee (one charge per reference) holds only while nothing else can still bring the charge to the
 * service: every earlier send has been answered or lost for good, and the transport never repeats a request on
 * its own (a late copy still in flight would find "none", and the resend would charge twice).
 */
import type { ChargeStatus } from '../inventory/PaymentService.js';
import { KEYLESS_TOOLS } from '../inventory/PaymentService.js';
import type { ToolAction } from '../runner/state.js';
import type { AttemptContext, ToolClient } from '../runner/ToolClient.js';
import type { FaultyNetwork } from './FaultyNetwork.js';

export class CheckedRetryClient implements ToolClient {
  readonly #network: FaultyNetwork;

  constructor(network: FaultyNetwork) {
    this.#network = network;
  }

  async execute(action: ToolAction, at: AttemptContext): Promise<unknown> {
    if (!KEYLESS_TOOLS.has(action.name) || at.attempt <= 1) return this.#network.execute(action, at);
    const status = (await this.#network.check({ kind: 'tool', name: 'charge_status', args: { ref: action.args.ref } }, at)) as ChargeStatus;
    if (status.found) return { status: 'charged', charge_id: status.charge_id, ref: status.ref, amount: status.amount };
    return this.#network.execute(action, at);
  }
}
