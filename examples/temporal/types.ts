// Types shared by the workflow, its activities and the webhook handler. The workflow imports only
// this file and Temporal's workflow package: workflow code runs in Temporal's deterministic sandbox,
// never beside the SDK client.

/** An order to pay by deposit. It carries no token: Temporal records workflow input in its history. */
export interface Order {
  readonly orderId: string;
  readonly email: string;
  readonly amount: number;
  readonly currency: string;
  readonly paymentProvider?: string | undefined;
}

/** What a payment activity answered, and what a settlement signal carries. */
export type PaymentAnswer =
  | {
      readonly status: 'completed' | 'failed';
      readonly referenceId: string;
      readonly transactionId?: string | undefined;
    }
  | { readonly status: 'pending' | 'unknown'; readonly referenceId: string }
  | { readonly status: 'refused'; readonly referenceId: string; readonly code: string };

/** A final status, as the webhook handler signals it. */
export interface SettledSignal {
  readonly referenceId: string;
  readonly status: 'completed' | 'failed';
  readonly transactionId: string;
}
