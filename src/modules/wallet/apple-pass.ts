// The member's card as an Apple Wallet store card (D23): built and signed with passkit-generator from the configured
// Pass Type ID certificate, in the chain's brand, its barcode the member's; `serialNumber` the member's id and its
// authentication token derived from the server's key, the member and the pass's generation.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppleWalletSettings } from '../../config.js';
import type { Db } from '../../db/database.js';
import { formatMoney } from '../../shared/display.js';
import { ApiError } from '../../shared/errors.js';
import type { SecretBox } from '../../shared/secret-box.js';
import * as accounts from '../accounts/service.js';
import type { Caller } from '../accounts/schemas.js';
import * as members from '../members/service.js';
import * as repo from './repo.js';

const ASSETS = path.resolve(import.meta.dirname, '../../../assets/wallet');
const SETTING_NAMES: Record<keyof AppleWalletSettings, string> = {
  passTypeId: 'APPLE_PASS_TYPE_ID',
  teamId: 'APPLE_TEAM_ID',
  certFile: 'APPLE_PASS_CERT',
  keyFile: 'APPLE_PASS_KEY',
  keyPassphrase: 'APPLE_PASS_KEY_PASSPHRASE',
  wwdrFile: 'APPLE_WWDR_CERT',
};

/** 409 wallet_not_configured naming every setting a pass still needs; the settings otherwise. */
export function requireAppleWallet(settings: AppleWalletSettings): Required<Omit<AppleWalletSettings, 'keyPassphrase'>> & Pick<AppleWalletSettings, 'keyPassphrase'> {
  const missing = (['passTypeId', 'teamId', 'certFile', 'keyFile', 'wwdrFile'] as const).filter((k) => !settings[k]).map((k) => SETTING_NAMES[k]);
  if (missing.length) throw new ApiError('wallet_not_configured', { message: `Apple Wallet passes need ${missing.join(', ')} set on the server (see docs/wallet.md).` });
  return settings as ReturnType<typeof requireAppleWallet>;
}

/** The pass's authentication token: what a device presents as `ApplePass <token>`; a new generation revokes it. */
export const passToken = (secrets: SecretBox, memberId: string, generation: number): string => secrets.macs('apple-pass-token', `${memberId}\0${generation}`)[0]!;

const rgb = (hex: string) => `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`;

const BARCODE_FORMATS: Record<string, 'PKBarcodeFormatQR' | 'PKBarcodeFormatCode128'> = {
  qr_card_number: 'PKBarcodeFormatQR',
  qr_serial: 'PKBarcodeFormatQR',
  code128_card_number: 'PKBarcodeFormatCode128',
};

export interface PassDeps {
  settings: AppleWalletSettings;
  secrets: SecretBox;
  publicBaseUrl: string;
}

/** The member's `.pkpass`, as it is now. */
export async function applePass(db: Db, caller: Caller, memberId: string, deps: PassDeps): Promise<Buffer> {
  const member = await members.getMember(db, caller, memberId);
  const settings = requireAppleWallet(deps.settings);
  const [generation, brand, chain] = await Promise.all([repo.passGeneration(db, caller.chainId, member.id), accounts.getBrand(db, caller.chainId), accounts.findChain(db, caller.chainId)]);
  const [cert, key, wwdr, icon, icon2x, icon3x, logo] = await Promise.all([
    readFile(settings.certFile),
    readFile(settings.keyFile),
    readFile(settings.wwdrFile),
    readFile(path.join(ASSETS, 'icon.png')),
    readFile(path.join(ASSETS, 'icon@2x.png')),
    readFile(path.join(ASSETS, 'icon@3x.png')),
    accounts.brandLogo(db, caller.chainId),
  ]);
  const name = brand.displayName ?? chain?.name ?? 'Loyalty';
  const where = { currency: chain?.currency ?? 'EUR', locale: caller.venue?.locale ?? 'en' };
  // Loaded when a pass is made: an API process that never makes one does not carry the library.
  const { PKPass, PassType } = await import('passkit-generator');
  const pass = new PKPass(
    { 'icon.png': icon, 'icon@2x.png': icon2x, 'icon@3x.png': icon3x, 'logo.png': logo?.png ?? icon2x },
    { wwdr, signerCert: cert, signerKey: key, signerKeyPassphrase: settings.keyPassphrase },
    {
      formatVersion: 1,
      passTypeIdentifier: settings.passTypeId,
      teamIdentifier: settings.teamId,
      serialNumber: member.id,
      organizationName: name,
      description: `${name} loyalty card`,
      logoText: name,
      authenticationToken: passToken(deps.secrets, member.id, generation ?? 0),
      webServiceURL: `${deps.publicBaseUrl}/wallet/apple`,
      backgroundColor: rgb(brand.backgroundColor),
      foregroundColor: rgb(brand.foregroundColor),
      labelColor: rgb(brand.labelColor),
    },
  );
  const card = new PassType('storeCard');
  card.primaryFields.push(
    member.stamps
      ? { key: 'stamps', label: 'Stamps', value: `${member.stamps.count} / ${member.stamps.required}` }
      : { key: 'balance', label: 'Balance', value: formatMoney(member.balance ?? 0, where) },
  );
  if (member.level) card.secondaryFields.push({ key: 'level', label: 'Level', value: member.level.name });
  card.auxiliaryFields.push({ key: 'card', label: 'Card', value: member.card_numbers[0] ?? member.serial });
  pass.types.push(card);
  pass.setBarcodes({ format: BARCODE_FORMATS[member.barcode.format] ?? 'PKBarcodeFormatQR', message: member.barcode.value, messageEncoding: 'iso-8859-1', altText: member.barcode.value });
  return pass.getAsBuffer();
}
