// The package's public surface.
export { VenueLoyalty, type ListPath, type VenueLoyaltyOptions } from './client.js';
export { VenueLoyaltyConnectionError, VenueLoyaltyError } from './errors.js';
export { WebhookVerificationError, type WebhookHeaders } from './webhooks.js';
export type * from './types.js';
