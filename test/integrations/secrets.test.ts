// A connection's secrets at rest (D26): sealed under the server's key, sealed again when the key rotates, and a
// server whose keys cannot open them refuses to start rather than fail at the provider's first call.
import { describe, expect, it } from 'vitest';
import { findIntegrationById } from '../../src/integrations/core/repo.js';
import { openSettings, sealConnectionsAgain } from '../../src/integrations/core/service.js';
import { ConfigError } from '../../src/shared/config-error.js';
import { SecretBox } from '../../src/shared/secret-box.js';
import { TEST_SECRET_KEY, useTestApp } from '../support/app.js';
import { createKey, createVenue } from '../support/factories.js';
import { client } from '../support/http.js';

const t = useTestApp();
const OLD = Buffer.from(TEST_SECRET_KEY, 'base64');
const NEW = Buffer.alloc(32, 9);

describe("a connection's secrets", () => {
  it('are stored sealed, sealed again under a new first key, and refuse a start whose keys cannot open them', async () => {
    const venue = await createVenue(t);
    const api = client(t, (await createKey(t, venue)).secret);
    const token = 'EAAA-rotation-token-0123456789';
    const created = await api.post('/api/v1/integrations', { provider: 'square', settings: { access_token: token, webhook_signature_key: 'sig-rotation-key-42' } });
    expect(created.status).toBe(201);
    const stored = (await findIntegrationById(t.db, created.body.id))!;
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.secret_key_id).toBe(new SecretBox([OLD]).keyId);

    const rotated = new SecretBox([NEW, OLD]);
    expect(await sealConnectionsAgain(t.db, rotated)).toBeGreaterThanOrEqual(1);
    const resealed = (await findIntegrationById(t.db, created.body.id))!;
    expect(resealed.secret_key_id).toBe(rotated.keyId);
    expect(openSettings(resealed, new SecretBox([NEW])).access_token).toBe(token);

    await expect(sealConnectionsAgain(t.db, new SecretBox([Buffer.alloc(32, 3)]))).rejects.toBeInstanceOf(ConfigError);
    expect(await sealConnectionsAgain(t.db, new SecretBox([OLD, NEW]))).toBeGreaterThanOrEqual(1);
  });
});
