// The chain's brand in the dashboard (D25): the name guests see, colours and the logo (a PNG sent as base64).
import { Type } from 'typebox';
import { inTransaction } from '../db/transaction.js';
import type { App } from '../http/context.js';
import { nonJson, withErrors } from '../http/responses.js';
import { ApiError } from '../shared/errors.js';
import { formatNullableTimestamp } from '../shared/time.js';
import * as accounts from '../modules/accounts/service.js';
import { sessionOf } from './request.js';
import * as service from './service.js';

const Colour = Type.String({ maxLength: 7, description: '#rrggbb' });
const Brand = Type.Object(
  {
    display_name: Type.Union([Type.String(), Type.Null()], { description: "The name guests see; null: the chain's name." }),
    background_color: Colour,
    foreground_color: Colour,
    label_color: Colour,
    logo_url: Type.Union([Type.String(), Type.Null()], { description: 'The logo, for this dashboard; null: none.' }),
    logo_updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'DashboardBrand' },
);
const BrandChange = Type.Object(
  {
    display_name: Type.Optional(Type.Union([Type.String({ maxLength: 60 }), Type.Null()])),
    background_color: Type.Optional(Colour),
    foreground_color: Type.Optional(Colour),
    label_color: Type.Optional(Colour),
  },
  { additionalProperties: false },
);
// Base64 of at most 256 KB of PNG (4 characters per 3 bytes), checked again on the bytes.
const NewLogo = Type.Object({ png_base64: Type.String({ minLength: 1, maxLength: Math.ceil(accounts.LOGO_MAX_BYTES / 3) * 4 + 4 }) }, { additionalProperties: false });

const present = (b: accounts.Brand) => ({
  display_name: b.displayName,
  background_color: b.backgroundColor,
  foreground_color: b.foregroundColor,
  label_color: b.labelColor,
  logo_url: b.hasLogo ? `/dashboard/api/brand/logo.png?v=${b.logoUpdatedAt?.getTime() ?? 0}` : null,
  logo_updated_at: formatNullableTimestamp(b.logoUpdatedAt),
});

/** Registered by dashboardApiRoutes on its own instance (its hooks, CSRF and document). */
export async function dashboardBrandRoutes(app: App, tags: string[]): Promise<void> {
  const { db, clock } = app.deps;
  const where = (req: Parameters<typeof sessionOf>[0]) => ({ chainId: sessionOf(req).venue.chainId, venueId: null, at: clock.now(), ...service.sessionWho(sessionOf(req)) });

  app.get('/brand', { schema: { tags, summary: "The chain's brand", response: withErrors({ 200: Brand }) } }, async (req) => present(await accounts.getBrand(db, sessionOf(req).venue.chainId)));

  app.patch('/brand', { schema: { tags, summary: "Change the brand's name or colours", body: BrandChange, response: withErrors({ 200: Brand }) } }, async (req) =>
    present(
      await inTransaction(db, (trx) =>
        accounts.changeBrand(trx, where(req), {
          displayName: req.body.display_name,
          backgroundColor: req.body.background_color,
          foregroundColor: req.body.foreground_color,
          labelColor: req.body.label_color,
        }),
      ),
    ),
  );

  app.put('/brand/logo', { schema: { tags, summary: 'Set the logo: a PNG of at most 256 KB and 1000 px a side, as base64', body: NewLogo, response: withErrors({ 200: Brand }) } }, async (req) => {
    const png = Buffer.from(req.body.png_base64, 'base64');
    return present(await inTransaction(db, (trx) => accounts.setLogo(trx, where(req), png)));
  });

  app.delete('/brand/logo', { schema: { tags, summary: 'Remove the logo', response: withErrors({ 200: Brand }) } }, async (req) =>
    present(await inTransaction(db, (trx) => accounts.setLogo(trx, where(req), null))),
  );

  app.get('/brand/logo.png', { schema: { tags, summary: 'The logo', response: withErrors({ 200: nonJson('image/png', 'PNG image', 'binary') }) } }, async (req, reply) => {
    const logo = await accounts.brandLogo(db, sessionOf(req).venue.chainId);
    if (!logo) throw new ApiError('logo_not_found');
    return reply.header('content-type', 'image/png').send(logo.png);
  });
}
