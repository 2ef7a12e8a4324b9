// HTTP routes for members: enrolment, look-up, list, profile, cards, history, activity, barcode, adjustments, rewards.
import { Type } from 'typebox';
import { callerOf, eventRequestOf, type App } from '../../http/context.js';
import { runMutation } from '../../http/idempotency.js';
import { withErrors } from '../../http/responses.js';
import { ListOf, PageQuery, pageFromQuery } from '../../shared/pagination.js';
import {
  Adjust,
  Adjustment,
  AttachCard,
  EnrolMember,
  HistoryEntry,
  LookupQuery,
  Member,
  MemberActivity,
  MemberListQuery,
  MemberParams,
  RewardRedemption,
  UpdateMember,
} from './schemas.js';
import * as activity from './activity.js';
import * as directory from './directory.js';
import * as service from './service.js';

const tags = ['Members'];
/** The error codes a route can answer besides 401/403/429, for its OpenAPI description. */
const errors = (...codes: string[]) => `Errors: ${codes.join('; ')}. See /api/errors.`;

export async function memberRoutes(app: App): Promise<void> {
  const db = () => app.deps.db;

  app.post(
    '/v1/members',
    {
      schema: {
        operationId: 'enrolMember',
        errors: ['card_number_taken', 'member_email_taken'],
        tags,
        summary: "Enrol a guest with the venue's card number; consent must be true",
        description: errors('400 parameter_invalid (consent, card_number, phone, email, program_id)', '409 card_number_taken', '409 member_email_taken (email)'),
        body: EnrolMember,
        response: withErrors({ 201: Member }),
      },
    },
    (req, reply) => runMutation(req, reply, 201, (trx) => service.enrolMember(trx, callerOf(req), req.body, eventRequestOf(req))),
  );

  app.get(
    '/v1/members',
    {
      schema: {
        operationId: 'listMembers',
        errors: ['venue_not_allowed'],
        tags,
        summary: "List or search the chain's members",
        description: errors('400 parameter_invalid (limit, starting_after, q, sort, level, last_visit_after, last_visit_before, phone)', '403 venue_not_allowed (venue_id)'),
        querystring: MemberListQuery,
        response: withErrors({ 200: ListOf(Member) }),
      },
    },
    (req) => directory.listMembers(db(), callerOf(req), pageFromQuery(req.query), req.query),
  );

  app.get(
    '/v1/members/lookup',
    {
      schema: {
        operationId: 'lookupMember',
        errors: ['member_not_found', 'member_ambiguous'],
        tags,
        summary: 'Find a member by card number, barcode content, phone or e-mail (exactly one)',
        description: errors('400 parameter_invalid (none or several of card_number, barcode, phone, email; phone; email)', '404 member_not_found', '409 member_ambiguous (two or more members have this phone)'),
        querystring: LookupQuery,
        response: withErrors({ 200: Member }),
      },
    },
    (req) => service.lookupMember(db(), callerOf(req), req.query),
  );

  app.get(
    '/v1/members/:id',
    { schema: { operationId: 'getMember', errors: ['member_not_found'], tags, summary: 'Get a member', description: errors('404 member_not_found'), params: MemberParams, response: withErrors({ 200: Member }) } },
    (req) => service.getMember(db(), callerOf(req), req.params.id),
  );

  app.patch(
    '/v1/members/:id',
    {
      schema: { operationId: 'updateMember', errors: ['member_not_found', 'member_email_taken'], tags, summary: 'Change name, phone, e-mail, birthday or (VIP) level', description: errors('400 parameter_invalid (phone, email, birthday, vip_level)', '404 member_not_found', '409 member_email_taken (email)'), params: MemberParams, body: UpdateMember, response: withErrors({ 200: Member }) },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.updateMember(trx, callerOf(req), req.params.id, req.body, eventRequestOf(req))),
  );

  app.post(
    '/v1/members/:id/cards',
    {
      schema: { operationId: 'attachCard', errors: ['member_not_found', 'card_number_taken'], tags, summary: 'Attach another card number', description: errors('400 parameter_invalid (card_number)', '404 member_not_found', '409 card_number_taken'), params: MemberParams, body: AttachCard, response: withErrors({ 201: Member }) },
    },
    (req, reply) => runMutation(req, reply, 201, (trx) => service.attachCard(trx, callerOf(req), req.params.id, req.body.card_number)),
  );

  app.get(
    '/v1/members/:id/history',
    {
      schema: {
        operationId: 'listMemberHistory',
        errors: ['member_not_found'],
        tags,
        summary: 'Everything that changed the balance, spend, visits or stamps, newest first',
        description: errors('400 parameter_invalid (limit, starting_after)', '404 member_not_found'),
        params: MemberParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: withErrors({ 200: ListOf(HistoryEntry) }),
      },
    },
    (req) => service.memberHistory(db(), callerOf(req), req.params.id, pageFromQuery(req.query)),
  );

  app.get(
    '/v1/members/:id/activity',
    {
      schema: {
        operationId: 'listMemberActivity',
        errors: ['member_not_found'],
        tags,
        summary: 'One row per check (its void and refunds in it) and one per other change, by when each happened, newest first',
        description: errors('400 parameter_invalid (limit, starting_after)', '404 member_not_found'),
        params: MemberParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: withErrors({ 200: ListOf(MemberActivity) }),
      },
    },
    (req) => activity.memberActivity(db(), callerOf(req), req.params.id, pageFromQuery(req.query)),
  );

  app.get(
    '/v1/members/:id/barcode.svg',
    {
      schema: {
        operationId: 'getMemberBarcode',
        errors: ['member_not_found'],
        tags,
        summary: "The member's barcode as an SVG image, in the program's format",
        description: errors('404 member_not_found'),
        params: MemberParams,
        response: withErrors({ 200: { description: 'SVG image', content: { 'image/svg+xml': { schema: Type.String() } } } }),
      },
    },
    async (req, reply) => reply.type('image/svg+xml').send(await service.barcodeSvg(db(), callerOf(req), req.params.id)),
  );

  app.post(
    '/v1/members/:id/adjustments',
    {
      schema: {
        operationId: 'adjustCashback',
        errors: ['redeem_not_supported', 'insufficient_balance', 'adjustments_disabled', 'member_not_found', 'balance_conflict'],
        tags,
        summary: 'Add or take cashback by hand, with a reason (only when the venue allows it)',
        description: errors('400 parameter_invalid (amount, reason)', '400 redeem_not_supported', '402 insufficient_balance (with available)', '403 adjustments_disabled', '404 member_not_found'),
        params: MemberParams,
        body: Adjust,
        response: withErrors({ 201: Adjustment }),
      },
    },
    (req, reply) =>
      runMutation(req, reply, 201, (trx) => service.adjustBalance(trx, callerOf(req), req.params.id, req.body, eventRequestOf(req), app.deps.clock)),
  );

  app.post(
    '/v1/members/:id/rewards/redeem',
    {
      schema: {
        operationId: 'redeemReward',
        errors: ['redeem_not_supported', 'no_reward_available', 'member_not_found'],
        tags,
        summary: 'Redeem one earned stamp reward',
        description: errors('400 redeem_not_supported', '402 no_reward_available', '404 member_not_found'),
        params: MemberParams,
        response: withErrors({ 201: RewardRedemption }),
      },
    },
    (req, reply) => runMutation(req, reply, 201, (trx) => service.redeemReward(trx, callerOf(req), req.params.id, app.deps.clock)),
  );
}
