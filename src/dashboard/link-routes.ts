// Sign-ups, invitations and password resets (D24, issue 45): each makes a link; whoever holds it uses it on its page and
// is signed in. Links are e-mailed when SMTP_URL is set, shown once otherwise. Whether an address has an account is
// told only to whoever holds its link: sign-ups and invitations are answered alike for known and unknown addresses.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { inTransaction } from '../db/transaction.js';
import type { App } from '../http/context.js';
import { withErrors } from '../http/responses.js';
import { ApiError } from '../shared/errors.js';
import type { Mail } from '../shared/mailer.js';
import { formatTimestamp } from '../shared/time.js';
import * as accounts from '../modules/accounts/service.js';
import { SessionInfo, SignUp } from './schemas.js';
import { sessionOf } from './request.js';
import * as service from './service.js';

const RoleName = Type.Union([Type.Literal('owner'), Type.Literal('manager'), Type.Literal('staff')]);
const Email = Type.String({ minLength: 3, maxLength: 254 });
const Token = Type.String({ minLength: 1, maxLength: 200, description: 'The part of the link after `#`.' });
const NewPassword = Type.String({ minLength: 10, maxLength: 1024, description: 'At least 10 characters.' });

const Invitation = Type.Object(
  { id: Type.String({ format: 'uuid' }), email: Type.String(), role: RoleName, created_at: Type.String({ format: 'date-time' }), expires_at: Type.String({ format: 'date-time' }) },
  { title: 'DashboardInvitation' },
);
const Sent = {
  emailed: Type.Boolean({ description: 'Whether the link was e-mailed (SMTP_URL set and the server accepted it).' }),
  link: Type.Union([Type.String(), Type.Null()], { description: 'The link, shown here once when it was not e-mailed; null when it was.' }),
};
const NewInvitation = Type.Object({ email: Email, role: RoleName }, { additionalProperties: false });
const SentInvitation = Type.Object({ invitation: Invitation, ...Sent });
const SentReset = Type.Object({ expires_at: Type.String({ format: 'date-time' }), ...Sent });
const SentSignUp = Type.Object({ expires_at: Type.String({ format: 'date-time' }), ...Sent });
const LinkInfo = Type.Object({
  purpose: Type.Union([Type.Literal('signup'), Type.Literal('invitation'), Type.Literal('password_reset')]),
  email: Type.String(),
  role: Type.Union([RoleName, Type.Null()], { description: 'The role the link gives: owner for a sign-up, null for a reset.' }),
  chain_name: Type.String({ description: "The chain's name; a sign-up's venue name." }),
  expires_at: Type.String({ format: 'date-time' }),
});
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export interface SessionTools {
  setCookie(reply: FastifyReply, token: string, maxAgeSeconds: number): void;
  holdToLimits(what: string, limits: [key: string, { limit: number; windowMs: number }, scope: string][]): Promise<void>;
}

const presentInvitation = (l: accounts.UserLink) => ({ id: l.id, email: l.email, role: l.role!, created_at: formatTimestamp(l.createdAt), expires_at: formatTimestamp(l.expiresAt) });

/** Registered by dashboardApiRoutes on its own instance (its hooks, CSRF and document). */
export async function dashboardLinkRoutes(app: App, tags: string[], tools: SessionTools): Promise<void> {
  const { config, clock, mailer } = app.deps;
  const perAddress = (req: { ip: string }, what: string) =>
    tools.holdToLimits(what, [[`dashboard-links:addr:${req.ip}`, { limit: config.linkUsesPerMinute, windowMs: 60_000 }, 'from this address']]);

  /**
   * E-mails a link when a mailer is configured, shown otherwise; to an address that has an account, the e-mail says so
   * in place of the link (`accountExists`). A mail that cannot be sent: a reset the owner made is shown instead; a
   * sign-up's or an invitation's (`refuseUnsent`, sent inside the transaction that makes it) is 503 for every address
   * alike, nothing kept, since showing that link would tell who has an account.
   */
  const deliver = async (
    issued: { link: accounts.UserLink | accounts.SignUpLink; token: string; accountExists?: boolean },
    chainName: string,
    refuseUnsent = false,
  ): Promise<{ emailed: boolean; link: string | null }> => {
    const link = accounts.linkUrl(config.publicBaseUrl, issued.token);
    if (!mailer) return { emailed: false, link };
    try {
      await mailer.send(linkMail(issued.link, issued.accountExists ? null : link, chainName, config.publicBaseUrl));
      return { emailed: true, link: null };
    } catch (err) {
      app.log.warn({ err: { message: (err as Error).message }, link_id: issued.link.id }, refuseUnsent ? 'a dashboard link could not be e-mailed; nothing was made' : 'a dashboard link could not be e-mailed; shown instead');
      if (refuseUnsent) throw new ApiError('service_unavailable', { message: 'The e-mail with the link could not be sent, so nothing was made; try again later.' });
      return { emailed: false, link };
    }
  };
  const sendReset = async (email: string, address: string) => {
    const user = await accounts.findOwnerByEmail(app.deps.db, email);
    if (!user) return;
    const where = { chainId: user.chainId, venueId: user.venueId, at: clock.now(), actor: { type: 'user' as const, id: null }, address };
    const issued = await inTransaction(app.deps.db, (trx) => accounts.passwordResetFor(trx, where, user));
    await deliver(issued, await chainNameOf(user.chainId));
  };
  const chainNameOf = async (chainId: string) => (await accounts.findChain(app.deps.db, chainId))?.name ?? 'your chain';

  // A sign-up is confirmed by its link: the answer is the same whether or not the address has an account, and only
  // the link's page (or the e-mail) tells. A sign-up whose e-mail could not be sent is refused, for every address alike.
  app.post(
    '/signup',
    {
      schema: {
        tags,
        summary: 'Ask to create a venue and its owner: the link that opens it is e-mailed, or shown when this server sends no e-mail',
        body: SignUp,
        response: withErrors({ 202: SentSignUp }),
      },
    },
    async (req, reply) => {
      if (!config.dashboardSignup) throw new ApiError('signup_closed');
      const email = req.body.email.trim().toLowerCase();
      // Each sign-up hashes a password and sends an e-mail: limited per address, per e-mail address and on the whole server.
      await tools.holdToLimits('sign-ups', [
        [`dashboard-signup:addr:${req.ip}`, { limit: config.signupLimits.perAddress, windowMs: HOUR_MS }, 'from this address'],
        [`dashboard-signup:email:${email}`, { limit: 3, windowMs: HOUR_MS }, 'for this e-mail address'],
        ['dashboard-signup:all', { limit: config.signupLimits.total, windowMs: HOUR_MS }, 'on this server'],
      ]);
      const { issued, sent } = await inTransaction(app.deps.db, async (trx) => {
        const issued = await service.requestSignUp(trx, req.body, clock.now());
        return { issued, sent: await deliver(issued, issued.link.venue.name, true) };
      });
      return reply.code(202).send({ expires_at: formatTimestamp(issued.link.expiresAt), ...sent });
    },
  );

  app.get('/invitations', { schema: { tags, summary: 'Invitations waiting to be accepted', response: withErrors({ 200: Type.Array(Invitation) }) } }, async (req) =>
    (await accounts.listInvitations(app.deps.db, sessionOf(req).venue.chainId, clock.now())).map(presentInvitation),
  );

  app.post(
    '/invitations',
    { schema: { tags, summary: 'Invite someone by e-mail with a role (a single-use link valid 7 days)', body: NewInvitation, response: withErrors({ 201: SentInvitation }) } },
    async (req, reply) => {
      const session = sessionOf(req);
      // Each invitation e-mails an address or shows a link that says whether it has an account: a chain's are counted.
      await tools.holdToLimits('invitations', [[`dashboard-invitations:chain:${session.venue.chainId}`, { limit: config.invitationsPerHour, windowMs: HOUR_MS }, 'in this chain']]);
      const chainName = await chainNameOf(session.venue.chainId);
      const { issued, sent } = await inTransaction(app.deps.db, async (trx) => {
        const issued = await accounts.inviteUser(trx, service.linkPlaceOf(session, clock.now()), req.body);
        return { issued, sent: await deliver(issued, chainName, true) };
      });
      return reply.code(201).send({ invitation: presentInvitation(issued.link), ...sent });
    },
  );

  app.delete('/invitations/:id', { schema: { tags, summary: 'Withdraw an invitation: its link stops working', params: IdParams, response: withErrors({ 200: Invitation }) } }, async (req) => {
    const session = sessionOf(req);
    return presentInvitation(await inTransaction(app.deps.db, (trx) => accounts.withdrawInvitation(trx, service.linkPlaceOf(session, clock.now()), req.params.id)));
  });

  app.post(
    '/users/:id/password-reset',
    { schema: { tags, summary: 'Make a password reset link for a user (single use, 24 hours)', params: IdParams, response: withErrors({ 201: SentReset }) } },
    async (req, reply) => {
      const session = sessionOf(req);
      const issued = await inTransaction(app.deps.db, (trx) => service.passwordResetForUser(trx, session, req.params.id, clock.now()));
      const sent = await deliver(issued, await chainNameOf(session.venue.chainId));
      return reply.code(201).send({ expires_at: formatTimestamp(issued.link.expiresAt), ...sent });
    },
  );

  // Forgotten passwords: answered the same whether or not the address has an account (no one learns who has one).
  app.post(
    '/password-reset',
    {
      schema: {
        tags,
        summary: 'Ask for a password reset link by e-mail (only when this server sends e-mail)',
        body: Type.Object({ email: Email }, { additionalProperties: false }),
        response: withErrors({ 202: Type.Object({ emailed: Type.Boolean({ description: 'false: this server sends no e-mail; ask the chain’s owner for a link.' }) }) }),
      },
    },
    async (req, reply) => {
      const email = req.body.email.trim().toLowerCase();
      await tools.holdToLimits('password resets', [
        [`dashboard-reset:addr:${req.ip}`, { limit: 10, windowMs: 3_600_000 }, 'from this address'],
        [`dashboard-reset:acct:${email}`, { limit: 3, windowMs: 3_600_000 }, 'for this account'],
      ]);
      if (!mailer) return reply.code(202).send({ emailed: false });
      // Answered at once: the link is made and sent afterwards, so how long the answer takes says nothing either.
      const address = req.ip;
      setImmediate(() => {
        sendReset(email, address).catch((err: Error) => app.log.warn({ err: { message: err.message } }, 'a password reset could not be made'));
      });
      return reply.code(202).send({ emailed: true });
    },
  );

  app.post(
    '/links/inspect',
    { schema: { tags, summary: 'What an invitation or reset link is for, before a password is chosen', body: Type.Object({ token: Token }, { additionalProperties: false }), response: withErrors({ 200: LinkInfo }) } },
    async (req) => {
      await perAddress(req, 'link checks');
      const link = await service.inspectLink(app.deps.db, req.body.token, clock.now());
      const expires_at = formatTimestamp(link.expiresAt);
      if (link.purpose === 'signup') return { purpose: link.purpose, email: link.email, role: 'owner' as const, chain_name: link.venue.name, expires_at };
      return { purpose: link.purpose, email: link.email, role: link.role, chain_name: await chainNameOf(link.chainId), expires_at };
    },
  );

  app.post(
    '/links/accept',
    {
      schema: {
        tags,
        summary: "Use a link and sign in: a sign-up's with the password chosen at sign-up, an invitation's or reset's with the password chosen now",
        body: Type.Object({ token: Token, password: NewPassword }, { additionalProperties: false }),
        response: withErrors({ 200: SessionInfo }),
      },
    },
    async (req, reply) => {
      await perAddress(req, 'link uses');
      const { token, session } = await inTransaction(app.deps.db, (trx) =>
        service.useLink(trx, req.body.token, req.body.password, { ip: req.ip, userAgent: req.headers['user-agent'] }, clock.now()),
      );
      tools.setCookie(reply, token, service.SESSION_TTL_MS / 1000);
      return service.presentSession(app.deps.db, session);
    },
  );
}

const HOUR_MS = 3_600_000;

/** A link's e-mail; `url` null: the address has an account, so the e-mail says so and carries no link. */
function linkMail(link: accounts.UserLink | accounts.SignUpLink, url: string | null, chainName: string, publicBaseUrl: string): Mail {
  const until = link.expiresAt.toUTCString();
  const taken = `This address already has a Venue Loyalty dashboard account, and an address belongs to one chain. Sign in at ${publicBaseUrl}/dashboard (or use "Forgot your password?" there).`;
  // A sign-up's venue name is anyone's text: it is not sent to an address whose owner has not confirmed it (the link's page shows it).
  if (link.purpose === 'signup') {
    return {
      to: link.email,
      subject: 'Confirm your sign-up on Venue Loyalty',
      text: url
        ? `Open your venue's dashboard here, with the password you chose (the link works once, until ${until}):\n${url}\n\nIf it was not you, ignore this e-mail: nothing is created.\n`
        : `Someone asked to create a venue on Venue Loyalty with this address. ${taken}\n\nIf it was not you, ignore this e-mail: nothing changes.\n`,
    };
  }
  if (link.purpose === 'invitation') {
    return {
      to: link.email,
      subject: `You are invited to ${chainName} on Venue Loyalty`,
      text: url
        ? `You are invited to ${chainName}'s dashboard as ${link.role}.\n\nChoose your password here (the link works once, until ${until}):\n${url}\n`
        : `You are invited to ${chainName}'s dashboard as ${link.role}. ${taken} To join ${chainName}, ask them to invite another address of yours.\n`,
    };
  }
  return {
    to: link.email,
    subject: 'Reset your Venue Loyalty password',
    text: `Someone asked to reset the password of your ${chainName} dashboard account.\n\nChoose a new password here (the link works once, until ${until}):\n${url}\n\nIf it was not you, ignore this e-mail: your password stays as it is.\n`,
  };
}
