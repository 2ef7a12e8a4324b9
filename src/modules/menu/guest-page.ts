// The public QR menu at /m/{venue_slug}/{table_code}: a phone-sized page of available dishes with a basket.
import type { App } from '../../http/context.js';
import { formatMoney } from '../../shared/display.js';
import { ApiError } from '../../shared/errors.js';
import { escapeHtml } from '../../shared/html.js';
import * as accounts from '../accounts/service.js';
import type { Dish } from './schemas.js';
import * as service from './service.js';

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;background:#f6f5f2;padding-bottom:6rem}
header{padding:1.1rem 1rem;display:flex;align-items:center;gap:.9rem}header img{max-height:3rem;max-width:8rem}h1{margin:0;font-size:1.35rem}header p{margin:.2rem 0 0;opacity:.85}
main{padding:0 .75rem;max-width:40rem;margin:0 auto}h2{font-size:1.05rem;margin:1.2rem .25rem .5rem;color:#1f3a34}
ul{list-style:none;margin:0;padding:0;background:#fff;border-radius:12px;box-shadow:0 1px 3px #0001}
li{display:grid;grid-template-columns:1fr auto;gap:.25rem .75rem;padding:.8rem .9rem;border-bottom:1px solid #eee}li:last-child{border:0}
.name{font-weight:600}.desc{grid-column:1;color:#666;font-size:.9rem}.price{font-weight:600;white-space:nowrap}
.qty{grid-column:2;grid-row:2;display:flex;align-items:center;gap:.5rem;justify-self:end}
.qty button{width:2.2rem;height:2.2rem;border-radius:50%;border:1px solid #1f3a34;background:#fff;color:#1f3a34;font-size:1.2rem;line-height:1}
.qty output{min-width:1.2rem;text-align:center}
footer{position:fixed;left:0;right:0;bottom:0;background:#fff;box-shadow:0 -2px 8px #0002;padding:.75rem 1rem;display:flex;align-items:center;gap:.75rem}
#summary{flex:1}#send{background:#e0793a;color:#fff;border:0;border-radius:10px;padding:.75rem 1.1rem;font-size:1rem;font-weight:600}
#send:disabled{background:#ccc}.note{display:block;margin:1rem .25rem;font-weight:600}.note textarea{display:block;width:100%;box-sizing:border-box;margin-top:.4rem;padding:.6rem;border:1px solid #ccc;border-radius:10px;font:inherit;font-weight:400}#message{margin:1rem .25rem;padding:.8rem;border-radius:10px;background:#e6f2ee;scroll-margin-bottom:6rem}#message.error{background:#fbe9e7}
.empty{padding:2rem 1rem;text-align:center;color:#666}`;

function dishItem(dish: Dish, where: { currency: string; locale: string }): string {
  const name = escapeHtml(dish.name);
  return `<li class="dish" data-sku="${escapeHtml(dish.external_id)}" data-price="${dish.price}">
<span class="name">${name}</span><span class="price">${escapeHtml(formatMoney(dish.price, where))}</span>
<span class="desc">${escapeHtml(dish.description ?? '')}</span>
<span class="qty"><button type="button" class="minus" aria-label="One ${name} less">−</button><output aria-label="${name} in basket">0</output><button type="button" class="plus" aria-label="Add ${name}">+</button></span>
</li>`;
}

function page(title: string, body: string, lang = 'en'): string {
  return `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>${body}</html>`;
}

/** The header in the chain's brand: its colours (checked #rrggbb when set) and its logo, when it has one. */
function brandedHeader(venue: accounts.Venue, table: { name: string }, brand: accounts.Brand): string {
  const logo = brand.hasLogo ? `<img src="/m/${encodeURIComponent(venue.slug)}/logo.png?v=${brand.logoUpdatedAt?.getTime() ?? 0}" alt="">` : '';
  return `<header style="background:${brand.backgroundColor};color:${brand.foregroundColor}">${logo}<div><h1>${escapeHtml(venue.name)}</h1><p>${escapeHtml(table.name)}</p></div></header>`;
}

export function renderMenu(venue: accounts.Venue, table: { tableCode: string; name: string }, dishes: Dish[], brand: accounts.Brand): string {
  const where = { currency: venue.currency, locale: venue.locale };
  const byCategory = new Map<string, Dish[]>();
  for (const dish of dishes) byCategory.set(dish.category ?? 'Menu', [...(byCategory.get(dish.category ?? 'Menu') ?? []), dish]);
  const sections = [...byCategory]
    .map(([category, list]) => `<section><h2>${escapeHtml(category)}</h2><ul>${list.map((d) => dishItem(d, where)).join('')}</ul></section>`)
    .join('');
  const fraction = new Intl.NumberFormat(venue.locale, { style: 'currency', currency: venue.currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return page(
    `${venue.name} · ${table.name}`,
    `<body data-slug="${escapeHtml(venue.slug)}" data-table="${escapeHtml(table.tableCode)}" data-currency="${venue.currency}" data-locale="${escapeHtml(venue.locale)}" data-fraction="${fraction}">
${brandedHeader(venue, table, brand)}
<main>${sections || '<p class="empty">Nothing can be ordered right now. Please ask the staff.</p>'}${sections ? '<label class="note">A note for the staff (optional)<textarea id="note" maxlength="500" rows="2" placeholder="No onions, please; we are celebrating…"></textarea></label>' : ''}<div id="message" role="status" hidden></div></main>
<footer><span id="summary">Your basket is empty</span><button type="button" id="send" disabled>Send order</button></footer>
<script src="/m/assets/menu.js" defer></script></body>`,
    venue.locale,
  );
}

// The basket: counts per dish, a total, and the order sent to the public order endpoint as JSON.
const SCRIPT = `'use strict';
(() => {
  const body = document.body;
  const money = new Intl.NumberFormat(body.dataset.locale, { style: 'currency', currency: body.dataset.currency });
  const scale = 10 ** Number(body.dataset.fraction);
  const basket = new Map();
  const summary = document.getElementById('summary');
  const send = document.getElementById('send');
  const message = document.getElementById('message');
  const note = document.getElementById('note');
  const dishes = [...document.querySelectorAll('.dish')];

  function render() {
    let count = 0, total = 0;
    for (const li of dishes) {
      const n = basket.get(li.dataset.sku) || 0;
      li.querySelector('output').textContent = String(n);
      count += n;
      total += n * Number(li.dataset.price);
    }
    summary.textContent = count ? count + (count === 1 ? ' item · ' : ' items · ') + money.format(total / scale) : 'Your basket is empty';
    send.disabled = count === 0;
  }

  function say(text, isError) {
    message.hidden = false;
    message.className = isError ? 'error' : '';
    message.textContent = text;
    message.scrollIntoView({ block: 'nearest' });
  }

  for (const li of dishes) {
    const sku = li.dataset.sku;
    li.querySelector('.plus').addEventListener('click', () => { basket.set(sku, Math.min(50, (basket.get(sku) || 0) + 1)); render(); });
    li.querySelector('.minus').addEventListener('click', () => { basket.set(sku, Math.max(0, (basket.get(sku) || 0) - 1)); render(); });
  }

  // One Idempotency-Key per basket: a guest who taps again after a lost answer gets the same order, not a second.
  let attempt = null;
  const newKey = () => (crypto.randomUUID ? crypto.randomUUID() : Date.now().toString(36) + Math.random().toString(36).slice(2));

  send.addEventListener('click', async () => {
    const items = [...basket].filter(([, n]) => n > 0).map(([external_id, quantity]) => ({ external_id, quantity }));
    const comment = note && note.value.trim();
    const payload = JSON.stringify({ table_code: body.dataset.table, items, ...(comment ? { comment } : {}) });
    if (!attempt || attempt.payload !== payload) attempt = { payload, key: newKey() };
    send.disabled = true;
    try {
      const res = await fetch('/api/public/v1/menus/' + encodeURIComponent(body.dataset.slug) + '/orders', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': attempt.key },
        body: payload,
      });
      const answer = await res.json();
      // An answer, either way: the next tap is a new request. Only a lost answer (below) keeps the key for the retry.
      attempt = null;
      if (!res.ok) { say(answer.error ? answer.error.message : 'The order could not be sent.', true); render(); return; }
      basket.clear();
      if (note) note.value = '';
      render();
      say('Thank you! Your order (' + money.format(answer.subtotal / scale) + ') was sent to the staff.', false);
    } catch {
      say('The order could not be sent. Please check your connection and try again.', true);
      render();
    }
  });
  render();
})();
`;

export async function guestMenuRoutes(app: App): Promise<void> {
  // The chain's logo in the menu's header (a table code is never "logo.png": codes are lowercase letters, digits, dashes).
  app.get<{ Params: { venue_slug: string } }>('/m/:venue_slug/logo.png', { schema: { hide: true } }, async (req, reply) => {
    const venue = await accounts.findVenueBySlug(app.deps.db, req.params.venue_slug);
    const logo = venue && (await accounts.brandLogo(app.deps.db, venue.chainId));
    if (!logo) throw new ApiError('logo_not_found');
    return reply.type('image/png').header('cache-control', 'public, max-age=300').send(logo.png);
  });

  app.get('/m/assets/menu.js', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(SCRIPT),
  );

  app.get<{ Params: { venue_slug: string; table_code: string } }>(
    '/m/:venue_slug/:table_code',
    { schema: { hide: true } },
    async (req, reply) => {
      reply.type('text/html; charset=utf-8');
      // Slugs are global (venues are a reference table); the tables and dishes are the venue's, in its chain.
      const venue = await accounts.findVenueBySlug(app.deps.db, req.params.venue_slug);
      if (venue) {
        const place = accounts.placeOf(venue);
        const table = await service.findTable(app.deps.db, place, req.params.table_code);
        if (table) return reply.send(renderMenu(venue, table, await service.availableDishes(app.deps.db, place), await accounts.getBrand(app.deps.db, venue.chainId)));
      }
      return reply.code(404).send(page('Menu not found', '<body><main><p class="empty">This menu was not found. Please ask the staff.</p></main></body>'));
    },
  );
}
