// Authenticates API keys from an in-memory cache that revocations clear in every process (NOTIFY) at once.
import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { hashKeySecret, isWellFormedKey } from './api-key-format.js';
import * as repo from './repo.js';
import type { KeyIdentity, KeyRules, Scope } from './schemas.js';
import { localAuthChanges } from './service.js';

export type AuthResult = { ok: true; caller: KeyIdentity } | { ok: false; code: 'api_key_invalid' | 'api_key_revoked' };

interface Entry {
  caller: KeyIdentity | null; // null: revoked
  cachedAt: number;
  lastUsedWrittenAt: number;
}

const MAX_ENTRIES = 10_000;
// A safety net only: revocations and venue changes arrive as notifications and clear entries at once.
const ENTRY_TTL_MS = 5 * 60_000;
const LAST_USED_EVERY_MS = 60_000;

export class KeyAuthenticator {
  private readonly cache = new Map<string, Entry>();
  private readonly forget = (secretHash: string) => this.cache.delete(secretHash);

  constructor(
    private readonly database: Database,
    private readonly pepper: string,
    private readonly clock: Clock,
  ) {}

  async start(): Promise<void> {
    localAuthChanges.on('changed', this.forget);
    await this.database.listen(repo.AUTH_CHANNEL, this.forget, () => this.cache.clear());
  }

  stop(): void {
    localAuthChanges.off('changed', this.forget);
    this.cache.clear();
  }

  async authenticate(secret: string): Promise<AuthResult> {
    if (!isWellFormedKey(secret)) return { ok: false, code: 'api_key_invalid' };
    const secretHash = hashKeySecret(secret, this.pepper);
    const now = this.clock.now().getTime();
    let entry = this.cache.get(secretHash);
    if (!entry || now - entry.cachedAt > ENTRY_TTL_MS) {
      const loaded = await this.load(secretHash, now);
      if (!loaded) return { ok: false, code: 'api_key_invalid' };
      entry = loaded;
    }
    if (!entry.caller) return { ok: false, code: 'api_key_revoked' };
    if (now - entry.lastUsedWrittenAt >= LAST_USED_EVERY_MS) {
      entry.lastUsedWrittenAt = now;
      await repo.touchApiKey(this.database.db, entry.caller.chainId, entry.caller.keyId, new Date(now));
    }
    return { ok: true, caller: entry.caller };
  }

  private async load(secretHash: string, now: number): Promise<Entry | undefined> {
    const row = await repo.findApiKeyWithVenues(this.database.db, secretHash);
    if (!row) return undefined;
    const venues = new Map(
      (row.venues as repo.VenueRow[]).map((v) => [
        v.venue_id,
        { settings: v.settings, locale: { name: v.name, country: v.country, currency: v.currency, locale: v.locale, timezone: v.timezone } },
      ]),
    );
    const caller: KeyIdentity | null = row.revoked_at
      ? null
      : {
          chainId: row.chain_id,
          keyVenueId: row.venue_id,
          keyId: row.id,
          keyName: row.name,
          keyPrefix: row.display_prefix,
          livemode: row.livemode,
          scopes: row.scopes as Scope[],
          rules: row.rules as KeyRules,
          venues,
        };
    const entry: Entry = { caller, cachedAt: now, lastUsedWrittenAt: row.last_used_at?.getTime() ?? 0 };
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(secretHash, entry);
    return entry;
  }
}
