import { type WalletApiErrorCode, walletErrorCodes } from '../../src/error-codes.js';

// Each rule's codes as the rule has always been, written out here so that a change to the code
// table shows up as a failing test rather than as a quiet change of what the SDK decides.

/** Every code an API error can carry: the 22 documented ones and `unknown_error`. */
export const ALL_CODES: readonly WalletApiErrorCode[] = [...walletErrorCodes, 'unknown_error'];

/** Refusals that say nothing about the payment: they settle a first send, never a re-send. */
export const NOT_ABOUT_THE_PAYMENT = [
  'missing_api_key',
  'invalid_api_key',
  'authorization_token_not_found',
  'application_not_authorized',
  'internal_server_error',
  'unknown_error',
] as const satisfies readonly WalletApiErrorCode[];

/** Codes that mean the user must log in again. */
export const REAUTHORIZATION = [
  'authorization_token_not_found',
  'application_not_authorized',
] as const satisfies readonly WalletApiErrorCode[];

/** Codes a poll never reads again. */
export const POLL_STOPS = [
  'missing_api_key',
  'invalid_api_key',
  'transaction_access_forbidden',
] as const satisfies readonly WalletApiErrorCode[];

/** Codes a poll reads again only while the transaction may not be visible yet. */
export const POLL_WHILE_NEW = ['transaction_not_found'] as const satisfies readonly WalletApiErrorCode[];

/** Codes a poll always reads again. */
export const POLL_RETRIES = ['internal_server_error'] as const satisfies readonly WalletApiErrorCode[];

/** Codes whose attempt is judged by the answer's status, as if it had no code. */
export const JUDGED_BY_STATUS = [
  'internal_server_error',
  'unknown_error',
] as const satisfies readonly WalletApiErrorCode[];

/** `codes` sorted, to compare sets as arrays. */
export const sorted = (codes: Iterable<WalletApiErrorCode>): WalletApiErrorCode[] => [...codes].sort();

/** The codes, `unknown_error` included, that `keep` keeps, sorted. */
export const codesWhere = (keep: (code: WalletApiErrorCode) => boolean): WalletApiErrorCode[] =>
  sorted(ALL_CODES.filter(keep));
