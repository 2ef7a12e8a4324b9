// The one CSV writer of every download (RFC 4180, CRLF): the transactions export and the dashboard's reports and logs.

/**
 * A field as CSV writes it. Text that could start a spreadsheet formula (a venue name an owner typed, an id a till
 * sent) is prefixed with an apostrophe, so a spreadsheet shows it instead of running it. A plain number ("-3.05", an
 * amount) is a number, not a formula, and stays as it is.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A field read back as csvField had it before defusing (the members import reads our own export so). */
export const undefused = (field: string): string => (/^'[=+\-@\t\r]/.test(field) ? field.slice(1) : field);

/** Minor units as a plain decimal in the currency's unit ("12.40", "-3.05"), which every spreadsheet reads as a number. */
export function decimal(minor: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  if (digits === 0) return String(minor);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const unit = 10 ** digits;
  return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(digits, '0')}`;
}

/** Rows as a CSV file: every field through csvField, each line ended by CRLF. */
export function csvLines(rows: (string | number | null)[][]): string {
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
