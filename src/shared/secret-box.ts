// Secrets at rest (webhook signing secrets): sealed with AES-256-GCM under the server's key, opened only to use.
// Rotation: a list of keys, the first seals, any opens; each sealed value records which key sealed it.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const SECRET_KEY_BYTES = 32;
const KEY_FILE = 'secret-encryption-key';

/**
 * A secret as stored: `text` is base64 of IV, tag and ciphertext, sealed by the key `keyId` names; a null keyId is a
 * plaintext secret written before sealing existed. `context` is what the secret belongs to (bound in as
 * authenticated data), so a sealed value copied to another row does not open there.
 */
export interface Sealed {
  text: string;
  keyId: string | null;
  context: string;
}

/** A key's public name: a hash of it, so that a sealed value says which key opens it without saying the key. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('venue-loyalty secret key id\0').update(key).digest('hex').slice(0, 16);
}

export class SecretBox {
  /** The id of the key that seals. */
  readonly keyId: string;
  private readonly keys: Map<string, Buffer>;

  constructor(keys: Buffer[]) {
    if (!keys.length || keys.some((k) => k.length !== SECRET_KEY_BYTES)) throw new Error(`SecretBox needs keys of ${SECRET_KEY_BYTES} bytes`);
    this.keys = new Map(keys.map((k) => [keyIdOf(k), k]));
    this.keyId = keyIdOf(keys[0]!);
  }

  /** The ids of every key this box holds, the sealing one first. */
  get keyIds(): string[] {
    return [...this.keys.keys()];
  }

  /** Whether this box holds the key with that id. */
  holds(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  seal(plain: string, context: string): Sealed {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.keyId)!, iv).setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return { text: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64'), keyId: this.keyId, context };
  }

  /**
   * A MAC of `message` for `purpose` under each key, the sealing key's first: what is handed out is the first; what is
   * presented is good if it is any (so rotating keys does not break what was handed out under an older one).
   */
  macs(purpose: string, message: string): string[] {
    return [...this.keys.values()].map((k) => createHmac('sha256', k).update(`venue-loyalty ${purpose}\0`).update(message).digest('base64url'));
  }

  /** The plaintext; throws if the key is not held or the value was altered or belongs elsewhere. */
  open(sealed: Sealed): string {
    if (sealed.keyId === null) return sealed.text;
    const key = this.keys.get(sealed.keyId);
    if (!key) throw new Error(`sealed with key ${sealed.keyId}, which SECRET_ENCRYPTION_KEY does not hold`);
    const raw = Buffer.from(sealed.text, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES)).setAAD(Buffer.from(sealed.context));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

/** "k1,k2": each base64 of 32 bytes; the first seals. A clear ConfigError for a key of another length. */
export function parseSecretKeys(text: string): Buffer[] {
  return text.split(',').map((part, i) => {
    const key = Buffer.from(part.trim(), 'base64');
    if (key.length !== SECRET_KEY_BYTES || !/^[A-Za-z0-9+/]+={0,2}$/.test(part.trim())) {
      throw new ConfigError(
        `Invalid configuration: SECRET_ENCRYPTION_KEY key ${i + 1} is not ${SECRET_KEY_BYTES} bytes in base64 ` + '(make one with `openssl rand -base64 32`).',
      );
    }
    return key;
  });
}

/**
 * The configured keys, or else a key kept beside the embedded database, made on first run (0600), so `npm start`
 * needs no set-up; a small venue backs up DATA_DIR as a whole. Several processes on one PostgreSQL must share
 * SECRET_ENCRYPTION_KEY (required there when NODE_ENV=production; see loadConfig).
 */
export function openSecretBox(config: { secretEncryptionKeys: Buffer[]; dataDir: string }): SecretBox {
  if (config.secretEncryptionKeys.length) return new SecretBox(config.secretEncryptionKeys);
  const file = path.join(config.dataDir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(SECRET_KEY_BYTES).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process made it first: use theirs.
      if ((err as { code?: string }).code !== 'EEXIST') throw err;
    }
  }
  return new SecretBox(parseSecretKeys(readFileSync(file, 'utf8').trim()));
}
