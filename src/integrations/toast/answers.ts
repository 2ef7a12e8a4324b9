// Toast's answers (LoyaltyTransactionResponse, Toast's schema v1.1.0): ACCEPT with the type's member, or an error
// status with the HTTP status Toast's documents give it; never our own error envelope.
export const TOAST_TYPES = ['LOYALTY_SEARCH', 'LOYALTY_INQUIRE', 'LOYALTY_REDEEM', 'LOYALTY_ACCRUE', 'LOYALTY_REVERSE', 'LOYALTY_SIGNUP', 'LOYALTY_TRANSFER'] as const;
export type ToastType = (typeof TOAST_TYPES)[number];

export type ToastStatus =
  | 'ERROR_INVALID_TOAST_TRANSACTION_TYPE'
  | 'ERROR_ACCOUNT_INVALID'
  | 'ERROR_INVALID_INPUT_PROPERTIES'
  | 'ERROR_TRANSACTION_DOES_NOT_EXIST'
  | 'ERROR_INVALID_TOKEN'
  | 'ERROR_TRANSACTION_CANNOT_BE_REVERSED'
  | 'ERROR_INVALID_RESTAURANT'
  | 'ERROR_INVALID_TRANSFER'
  | 'ERROR_ALREADY_REGISTERED';

export interface ToastAnswer {
  status: number;
  body: Record<string, unknown>;
}

export const accept = (body: Record<string, unknown> = {}): ToastAnswer => ({ status: 200, body: { ...body, transactionStatus: 'ACCEPT' } });

/** An account Toast's schema answers 404 for (a search that finds none, an unknown identifier); the rest are 400. */
export const refused = (status: ToastStatus): ToastAnswer => ({ status: status === 'ERROR_ACCOUNT_INVALID' ? 404 : 400, body: { transactionStatus: status } });

/** Toast's guide's answer to what went wrong on our side: 500 ERROR, a message with nothing personal in it. */
export const failed = (message: string): ToastAnswer => ({ status: 500, body: { transactionStatus: 'ERROR', message } });

/** A refusal a transaction's handler throws; the endpoint answers (and keeps) it. */
export class ToastRefusal extends Error {
  constructor(readonly answer: ToastAnswer) {
    super(String(answer.body.transactionStatus));
  }
}
