// The Square connector (D26) as the connector core sees it: its queued work and its reconciliation pass.
import type { ProviderWork } from '../core/queue.js';
import { handleEntry } from './handle.js';
import { reconcile } from './reconcile.js';

export const square: ProviderWork = { handle: handleEntry, reconcile };
