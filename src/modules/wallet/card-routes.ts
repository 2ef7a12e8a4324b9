// The guest's card page (D23) at /card/{member id}?t=…: the card with its barcode and balance, and buttons that add
// it to Apple Wallet or Google Wallet; the pass and the save link it opens; and the logo Google shows on a program's
// cards. No API key: the link's token is the key, to this one card only. Its query string never reaches the log.
// Rate limited per address, as the pass web service is.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { limitPerAddress } from '../../http/address-limit.js';
import type { App } from '../../http/context.js';
import { ApiError } from '../../shared/errors.js';
import { escapeHtml } from '../../shared/html.js';
import { isUuid } from '../../shared/ids.js';
import * as accounts from '../accounts/service.js';
import * as members from '../members/service.js';
import { applePass } from './apple-pass.js';
import type { CardFace } from './card.js';
import { GoogleWallet } from './google-wallet.js';
import * as repo from './repo.js';
import * as wallet from './service.js';

const ICON = path.resolve(import.meta.dirname, '../../../assets/wallet/icon@3x.png');
const STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;background:#f6f5f2}
main{max-width:26rem;margin:0 auto;padding:1rem}.card{border-radius:16px;padding:1.1rem;box-shadow:0 2px 10px #0002}
.card header{display:flex;align-items:center;gap:.75rem}.card header img{max-height:2.5rem;max-width:6rem}h1{margin:0;font-size:1.25rem}
.figures{display:flex;justify-content:space-between;margin:1rem 0}.label{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em}
.value{font-size:1.6rem;font-weight:700}.barcode{background:#fff;border-radius:10px;padding:.8rem;text-align:center}
.barcode svg{width:100%;max-height:12rem}.number{color:#1d1d1f;font-size:.9rem;margin-top:.3rem}
.buttons{display:grid;gap:.6rem;margin-top:1.2rem}.buttons a{display:block;text-align:center;padding:.85rem;border-radius:12px;background:#000;color:#fff;font-weight:600;text-decoration:none}
.buttons a.google{background:#1a73e8}p.gone{text-align:center;margin-top:3rem}`;

function page(title: string, body: string, lang: string): string {
  return `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function cardPage(face: CardFace, barcode: string, links: { apple?: string; google?: string }, lang: string): string {
  const { brand } = face;
  const logo = brand.hasLogo ? `<img src="/wallet/programs/${face.programId}/logo.png?v=${brand.logoUpdatedAt?.getTime() ?? 0}" alt="">` : '';
  const buttons = [
    links.apple && `<a class="apple" href="${escapeHtml(links.apple)}">Add to Apple Wallet</a>`,
    links.google && `<a class="google" href="${escapeHtml(links.google)}">Save to Google Wallet</a>`,
  ].filter(Boolean);
  return page(
    `${face.name} card`,
    `<section class="card" style="background:${brand.backgroundColor};color:${brand.foregroundColor}">
<header>${logo}<h1>${escapeHtml(face.name)}</h1></header>
<div class="figures"><div><div class="label" style="color:${brand.labelColor}">${face.points.label}</div><div class="value" id="points">${escapeHtml(face.points.text)}</div></div>${
      face.level ? `<div><div class="label" style="color:${brand.labelColor}">Level</div><div class="value" id="level">${escapeHtml(face.level)}</div></div>` : ''
    }</div>
<div class="barcode" role="img" aria-label="Card barcode ${escapeHtml(face.barcode.value)}">${barcode}<div class="number">${escapeHtml(face.cardNumber)}</div></div>
</section>${buttons.length ? `<nav class="buttons">${buttons.join('')}</nav>` : ''}`,
    lang,
  );
}

const notFound = (reply: FastifyReply) =>
  reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page('Card not found', '<p class="gone">This card link does not work. Ask the venue for a new one.</p>', 'en'));

type CardRequest = { Params: { id: string }; Querystring: { t?: string } };
// Any t is taken in (a wrong one gets the page that says the link does not work, never an API error).
const schema = { hide: true, querystring: Type.Object({ t: Type.Optional(Type.String()) }) };

export async function cardRoutes(app: App): Promise<void> {
  const { db, config, clock } = app.deps;
  const google = new GoogleWallet(config.googleWallet);
  limitPerAddress(app, 'card');
  const status = () => wallet.walletStatus(config.appleWallet, config.googleWallet, config.publicBaseUrl);
  const opened = (req: { params: { id: string }; query: { t?: string } }) => wallet.cardOfLink(db, app.deps.secretBox, req.params.id, req.query.t, clock.now());
  const passDeps = () => ({ settings: config.appleWallet, secrets: app.deps.secretBox, publicBaseUrl: config.publicBaseUrl });

  app.get<CardRequest>('/card/:id', { schema }, async (req, reply) => {
    const card = await opened(req);
    if (!card) return notFound(reply);
    const t = encodeURIComponent(req.query.t!);
    const { apple, google: g } = status();
    const links = {
      apple: apple.configured ? `/card/${card.face.memberId}/pass.pkpass?t=${t}` : undefined,
      google: g.configured ? `/card/${card.face.memberId}/google?t=${t}` : undefined,
    };
    const barcode = await members.renderBarcode(card.face.barcode);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(cardPage(card.face, barcode, links, card.place.venue.locale));
  });

  app.get<CardRequest>('/card/:id/pass.pkpass', { schema }, async (req, reply) => {
    const card = await opened(req);
    if (!card) return notFound(reply);
    const pass = await applePass(db, card.place, card.face.memberId, passDeps());
    return reply.type('application/vnd.apple.pkpass').header('cache-control', 'no-store').send(pass);
  });

  app.get<CardRequest>('/card/:id/google', { schema }, async (req, reply) => {
    const card = await opened(req);
    if (!card) return notFound(reply);
    return reply.redirect(await wallet.googleSaveUrl(db, card.place, card.face.memberId, google, config.publicBaseUrl), 303);
  });

  // The logo on a program's Google cards: the chain's, else the icon every pass carries.
  app.get<{ Params: { id: string } }>('/wallet/programs/:id/logo.png', { schema: { hide: true } }, async (req, reply) => {
    const chainId = isUuid(req.params.id) ? await repo.chainOfProgram(db, req.params.id) : undefined;
    if (!chainId) throw new ApiError('logo_not_found');
    const logo = await accounts.brandLogo(db, chainId);
    return reply.type('image/png').header('cache-control', 'public, max-age=300').send(logo?.png ?? (await readFile(ICON)));
  });
}
