import { tracingChannel } from '../diagnostics/channel.js';
import type { WalletEndpoint } from '../error-codes.js';
import type { AttemptReceiver, AttemptRequest, Transport } from './attempt.js';
import { readErrorBody } from './error-body.js';
import { parseLoosely } from './read-answer.js';
import { requestIdOf } from './response.js';
import type { AnswerReaders } from './traced-attempt.js';
import { whenTracedPaths } from './tracing.js';

const READERS: AnswerReaders = { requestIdOf, readErrorBody, parseLoosely };

/** One channel for every client, looked up when the module loads. */
const requestChannel = tracingChannel('merchant-wallet:request');

/**
 * Starts one attempt through `transport` and hands its outcome to `receiver`: straight through the
 * transport (its `start` when it has one) when nobody listens on `merchant-wallet:request`, else
 * traced there (see `WalletRequestTrace`).
 */
export function startAttempt(
  request: AttemptRequest,
  call: { readonly endpoint: WalletEndpoint; readonly referenceId?: string | undefined },
  attempt: number,
  secrets: readonly string[],
  transport: Transport,
  receiver: AttemptReceiver,
): void {
  const channel = requestChannel;
  if (channel?.hasSubscribers) {
    whenTracedPaths(
      (paths) => paths.traceAttempt(channel, request, call, attempt, secrets, transport, READERS, receiver),
      (error) => receiver.failed(error),
    );
  } else if (transport.start) {
    transport.start(request, receiver);
  } else {
    transport(request).then(
      (arrived) => receiver.arrived(arrived),
      (error: unknown) => receiver.failed(error),
    );
  }
}
