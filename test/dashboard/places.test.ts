// Messages that send the owner to a page and field of the dashboard name them as the dashboard labels them.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_PLACES } from '../../src/shared/errors.js';

const WEB = new URL('../../web/src/', import.meta.url);
const navigation = readFileSync(new URL('App.tsx', WEB), 'utf8');
const pages = [new URL('rules.tsx', WEB), ...readdirSync(new URL('pages/', WEB)).map((f) => new URL(`pages/${f}`, WEB))]
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');

/** Text the page shows: a quoted label (`label="…"`, `label: '…'`) or a button's or heading's own text. */
const shows = (source: string, text: string) =>
  [`'${text}'`, `"${text}"`, `>${text}<`, new RegExp(`>\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*<`)].some((needle) =>
    typeof needle === 'string' ? source.includes(needle) : needle.test(source),
  );

describe('DASHBOARD_PLACES', () => {
  it.each(Object.entries(DASHBOARD_PLACES))('%s names a page in the navigation and a field on the pages', (_, { page, field }) => {
    expect(navigation).toContain(`label: '${page}'`);
    expect(shows(pages, field), field).toBe(true);
  });
});
