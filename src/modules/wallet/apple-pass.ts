// The member's card as an Apple Wallet store card (D23): built and signed with passkit-generator from the configured
// Pass Type ID certificate, in the chain's brand, its barcode the member's; `serialNumber` the member's id and its
// authentication token derived from the server's key, the member and the pass's generation.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppleWalletSettings } from '../../config.js';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../shared/errors.js';
import type { SecretBox } from '../../shared/secret-box.js';
import * as accounts from '../accounts/service.js';
import type { Caller } from '../accounts/schemas.js';
import { cardFace } from './card.js';
import * as repo from './repo.js';

const ASSETS = path.resolve(import.meta.dirname, '../../../assets/wallet');
const REQUIRED = { passTypeId: 'APPLE_PASS_TYPE_ID', teamId: 'APPLE_TEAM_ID', certFile: 'APPLE_PASS_CERT', keyFile: 'APPLE_PASS_KEY', wwdrFile: 'APPLE_WWDR_CERT' } as const;
export type ConfiguredAppleWallet = AppleWalletSettings & Required<Pick<AppleWalletSettings, keyof typeof REQUIRED>>;

/** The settings Apple Wallet passes still need, by their variable's name; none: configured. */
export const missingAppleSettings = (settings: AppleWalletSettings): string[] =>
  (Object.keys(REQUIRED) as (keyof typeof REQUIRED)[]).filter((k) => !settings[k]).map((k) => REQUIRED[k]);

/** 409 wallet_not_configured naming every setting a pass still needs; the settings otherwise. */
export function requireAppleWallet(settings: AppleWalletSettings): ConfiguredAppleWallet {
  const missing = missingAppleSettings(settings);
  if (missing.length) throw new ApiError('wallet_not_configured', { message: `Apple Wallet passes need ${missing.join(', ')} set on the server (see docs/wallet.md).` });
  return settings as ConfiguredAppleWallet;
}

/** The pass's authentication token: what a device presents as `ApplePass <token>`; a new generation revokes it. */
export const passToken = (secrets: SecretBox, memberId: string, generation: number): string => secrets.macs('apple-pass-token', `${memberId}\0${generation}`)[0]!;

const rgb = (hex: string) => `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`;

export interface PassDeps {
  settings: AppleWalletSettings;
  secrets: SecretBox;
  publicBaseUrl: string;
}

/** The member's `.pkpass`, as it is now. */
export async function applePass(db: Db, caller: Caller, memberId: string, deps: PassDeps): Promise<Buffer> {
  const face = await cardFace(db, caller, memberId);
  const settings = requireAppleWallet(deps.settings);
  const [generation, files, logo] = await Promise.all([repo.generations(db, caller.chainId, face.memberId), passFiles(settings), accounts.brandLogo(db, caller.chainId)]);
  // Loaded when a pass is made: an API process that never makes one does not carry the library.
  const { PKPass, PassType } = await import('passkit-generator');
  const { brand, name } = face;
  const pass = new PKPass(
    { 'icon.png': files.icon, 'icon@2x.png': files.icon2x, 'icon@3x.png': files.icon3x, 'logo.png': logo?.png ?? files.icon2x },
    { wwdr: files.wwdr, signerCert: files.cert, signerKey: files.key, signerKeyPassphrase: settings.keyPassphrase },
    {
      formatVersion: 1,
      passTypeIdentifier: settings.passTypeId,
      teamIdentifier: settings.teamId,
      serialNumber: face.memberId,
      organizationName: name,
      description: `${name} loyalty card`,
      logoText: name,
      authenticationToken: passToken(deps.secrets, face.memberId, generation?.pass_generation ?? 0),
      webServiceURL: `${deps.publicBaseUrl}/wallet/apple`,
      backgroundColor: rgb(brand.backgroundColor),
      foregroundColor: rgb(brand.foregroundColor),
      labelColor: rgb(brand.labelColor),
    },
  );
  const card = new PassType('storeCard');
  card.primaryFields.push({ key: face.points.label === 'Stamps' ? 'stamps' : 'balance', label: face.points.label, value: face.points.text });
  if (face.level) card.secondaryFields.push({ key: 'level', label: 'Level', value: face.level });
  card.auxiliaryFields.push({ key: 'card', label: 'Card', value: face.cardNumber });
  pass.types.push(card);
  const format = face.barcode.kind === 'code128' ? 'PKBarcodeFormatCode128' : 'PKBarcodeFormatQR';
  pass.setBarcodes({ format, message: face.barcode.value, messageEncoding: 'iso-8859-1', altText: face.barcode.value });
  return pass.getAsBuffer();
}

// The certificates and icons, read once per process (per settings): they do not change under a running process.
const filesRead = new WeakMap<object, Promise<Record<'cert' | 'key' | 'wwdr' | 'icon' | 'icon2x' | 'icon3x', Buffer>>>();
function passFiles(settings: ConfiguredAppleWallet) {
  let files = filesRead.get(settings);
  if (!files) {
    const read = (file: string) => readFile(file);
    files = Promise.all([settings.certFile, settings.keyFile, settings.wwdrFile, ...['icon.png', 'icon@2x.png', 'icon@3x.png'].map((f) => path.join(ASSETS, f))].map(read)).then(
      ([cert, key, wwdr, icon, icon2x, icon3x]) => ({ cert: cert!, key: key!, wwdr: wwdr!, icon: icon!, icon2x: icon2x!, icon3x: icon3x! }),
    );
    // A file that could not be read is tried again next time.
    files.catch(() => filesRead.delete(settings));
    filesRead.set(settings, files);
  }
  return files;
}
