// The package's public surface.
export { VenueLoyalty, type ListPath, type VenueLoyaltyOptions } from './client.js';
export { VenueLoyaltyConnectionError, VenueLoyaltyError } from './errors.js';
export type { WebhookHeaders } from './webhooks.js';
/** What `webhooks.verify` throws for a delivery that is not genuine or is too old. */
export { WebhookVerificationError } from 'standardwebhooks';
export type * from './types.js';
