// A table's QR code: the address of its public menu page (/m/{venue_slug}/{table_code}) as SVG or PNG, from the qrcode library.
import { qrCodes } from '../../shared/on-first-use.js';

/** The guest page a table's QR code opens, under the server's public address. */
export function tableMenuUrl(publicBaseUrl: string, venueSlug: string, tableCode: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/m/${encodeURIComponent(venueSlug)}/${encodeURIComponent(tableCode)}`;
}

// M: a code printed on a table survives some wear and dirt (15 % of it may be unreadable).
const OPTIONS = { errorCorrectionLevel: 'M' as const, margin: 2 };

export async function tableQrSvg(url: string): Promise<string> {
  return qrCodes().toString(url, { ...OPTIONS, type: 'svg' });
}

/** 1024 px square: sharp when printed at table-tent size. */
export async function tableQrPng(url: string): Promise<Buffer> {
  return qrCodes().toBuffer(url, { ...OPTIONS, type: 'png', width: 1024 });
}
