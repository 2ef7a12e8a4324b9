// Google Wallet (D23): a loyalty class per program and a loyalty object per member, saved by the guest through a
// link whose JWT the service account signs, then kept up to date by PATCHes through the walletobjects API with an
// access token from the key file's token_uri (JWT-bearer grant). Signed with jose: no JWT code of our own.
import { readFileSync } from 'node:fs';
import type { CryptoKey } from 'jose';
import type { GoogleWalletSettings } from '../../config.js';
import { ApiError } from '../../shared/errors.js';
import { jose } from '../../shared/on-first-use.js';
import type { CardFace } from './card.js';

const REQUIRED = { issuerId: 'GOOGLE_WALLET_ISSUER_ID', serviceAccountFile: 'GOOGLE_WALLET_SERVICE_ACCOUNT' } as const;
const SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer';
const SAVE_URL = 'https://pay.google.com/gp/v/save/';

export const missingGoogleSettings = (settings: GoogleWalletSettings): string[] =>
  (Object.keys(REQUIRED) as (keyof typeof REQUIRED)[]).filter((k) => !settings[k]).map((k) => REQUIRED[k]);

/** What a member's card shows, as Google's loyalty class and object take it. */
export interface GoogleCard {
  memberId: string;
  programId: string;
  issuerName: string;
  programName: string;
  logoUrl: string;
  backgroundColor: string;
  accountId: string;
  accountName: string | null;
  points: { label: string; balance: { string: string } | { int: number } };
  barcode: { type: 'QR_CODE' | 'CODE_128'; value: string };
}

interface ServiceAccount {
  client_email: string;
  private_key: string;
  token_uri: string;
}

/** The Google object of a card: its figures and barcode as the card face says, its logo the program's. */
export function googleCard(face: CardFace, publicBaseUrl: string): GoogleCard {
  return {
    memberId: face.memberId,
    programId: face.programId,
    issuerName: face.name,
    programName: `${face.name} loyalty`,
    logoUrl: `${publicBaseUrl}/wallet/programs/${face.programId}/logo.png`,
    backgroundColor: face.brand.backgroundColor,
    accountId: face.cardNumber,
    accountName: face.memberName,
    points: face.points.label === 'Stamps' ? { label: 'Stamps', balance: { int: face.points.count } } : { label: 'Balance', balance: { string: face.points.text } },
    barcode: { type: face.barcode.kind === 'code128' ? 'CODE_128' : 'QR_CODE', value: face.barcode.value },
  };
}

export const objectId = (issuerId: string, memberId: string) => `${issuerId}.${memberId}`;

export class GoogleWallet {
  private account: { email: string; key: CryptoKey; tokenUri: string } | undefined;
  private token: { value: string; until: number } | undefined;
  /** A token request under way: updates sent at once share it. */
  private tokenRequest: Promise<string> | undefined;

  /** `timeoutMs`: the longest a token request or a PATCH may take (WEBHOOK_TIMEOUT for the worker). */
  constructor(
    private readonly settings: GoogleWalletSettings,
    private readonly timeoutMs = 15_000,
  ) {}

  get configured(): boolean {
    return missingGoogleSettings(this.settings).length === 0;
  }

  /** 409 wallet_not_configured naming what is missing, else nothing. */
  require(): void {
    const missing = missingGoogleSettings(this.settings);
    if (missing.length) throw new ApiError('wallet_not_configured', { message: `Google Wallet cards need ${missing.join(', ')} set on the server (see docs/wallet.md).` });
  }

  /** The "Save to Google Wallet" link: a JWT carrying the program's class and the member's object. */
  async saveUrl(card: GoogleCard, origin: string): Promise<string> {
    this.require();
    const account = await this.serviceAccount();
    const jwt = await new (await jose()).SignJWT({
      typ: 'savetowallet',
      origins: [origin],
      payload: { loyaltyClasses: [this.loyaltyClass(card)], loyaltyObjects: [this.loyaltyObject(card)] },
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(account.email)
      .setAudience('google')
      .setIssuedAt()
      .sign(account.key);
    return SAVE_URL + jwt;
  }

  /** Sends the card's figures to its object; the API's status (404: the guest never saved it), or a thrown error. */
  async patchObject(card: GoogleCard): Promise<number> {
    const { accountId, accountName, loyaltyPoints, barcode } = this.loyaltyObject(card);
    return this.patch(card.memberId, { accountId, accountName, loyaltyPoints, barcode });
  }

  /** An erased member's object: out of use, with nothing of theirs left on it. */
  async retireObject(memberId: string): Promise<number> {
    return this.patch(memberId, {
      state: 'INACTIVE',
      accountId: '-',
      accountName: '-',
      loyaltyPoints: { label: 'Balance', balance: { string: '-' } },
      barcode: { type: 'QR_CODE', value: '-', alternateText: '-' },
    });
  }

  private async patch(memberId: string, body: Record<string, unknown>): Promise<number> {
    this.require();
    const res = await fetch(`${this.settings.apiUrl}/loyaltyObject/${encodeURIComponent(objectId(this.settings.issuerId!, memberId))}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${await this.accessToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    await res.arrayBuffer();
    // A refused token is renewed at the next attempt.
    if (res.status === 401) this.token = undefined;
    return res.status;
  }

  private loyaltyClass(card: GoogleCard) {
    return {
      id: `${this.settings.issuerId}.${card.programId}`,
      issuerName: card.issuerName,
      programName: card.programName,
      programLogo: { sourceUri: { uri: card.logoUrl } },
      hexBackgroundColor: card.backgroundColor,
      reviewStatus: 'UNDER_REVIEW',
    };
  }

  private loyaltyObject(card: GoogleCard) {
    return {
      id: objectId(this.settings.issuerId!, card.memberId),
      classId: `${this.settings.issuerId}.${card.programId}`,
      state: 'ACTIVE',
      accountId: card.accountId,
      accountName: card.accountName ?? card.accountId,
      loyaltyPoints: card.points,
      barcode: { ...card.barcode, alternateText: card.barcode.value },
    };
  }

  // Read once: the key file does not change under a running process.
  private async serviceAccount() {
    if (!this.account) {
      const file = JSON.parse(readFileSync(this.settings.serviceAccountFile!, 'utf8')) as ServiceAccount;
      this.account = { email: file.client_email, key: await (await jose()).importPKCS8(file.private_key, 'RS256'), tokenUri: file.token_uri };
    }
    return this.account;
  }

  /** An access token for the walletobjects API, kept until a minute before it runs out. */
  private accessToken(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return Promise.resolve(this.token.value);
    this.tokenRequest ??= this.requestToken().finally(() => (this.tokenRequest = undefined));
    return this.tokenRequest;
  }

  private async requestToken(): Promise<string> {
    const account = await this.serviceAccount();
    const assertion = await new (await jose()).SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(account.email)
      .setAudience(account.tokenUri)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(account.key);
    const res = await fetch(account.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw new Error(`Google token endpoint answered ${res.status}`);
    const body = (await res.json()) as { access_token: string; expires_in?: number };
    this.token = { value: body.access_token, until: Date.now() + Math.max(0, (body.expires_in ?? 3600) - 60) * 1000 };
    return body.access_token;
  }
}
