// HTTP routes for checks and transactions: calculate, apply, list, get, void, partial refunds.
import { Type } from 'typebox';
import { callerOf, placeCallerOf, eventRequestOf, type App } from '../../http/context.js';
import { runMutation, runMutationWithStatus } from '../../http/idempotency.js';
import { withErrors } from '../../http/responses.js';
import { ListOf, PageQuery, pageFromQuery } from '../../shared/pagination.js';
import { CalculateBody, CaptureBody, CheckBody, CheckCalculation, Refund, RefundBody, RegisterQuery, Transaction, TransactionParams } from '../../modules/checks/schemas.js';
import { applyCheck, calculateCheck } from './apply.js';
import { captureHoldIntoCheck } from './capture.js';
import { getTransaction, listTransactions } from '../../modules/checks/reads.js';
import { refundTransaction, voidTransaction } from './reverse.js';

const tags = ['Checks'];
// What the rules can refuse; the document lists each code under its status (src/http/openapi.ts).
const HOLD_ERRORS = ['hold_not_found', 'hold_expired', 'hold_captured', 'hold_released'] as const;
const CHECK_ERRORS = [
  'register_id_required',
  'check_too_old',
  'hold_required',
  'redeem_not_supported',
  'insufficient_balance',
  'redeem_limit_exceeded',
  'scan_required',
  'member_not_found',
  ...HOLD_ERRORS,
] as const;

export async function checkRoutes(app: App): Promise<void> {
  const ctx = { clock: app.deps.clock, scanWindowSeconds: app.deps.config.scanWindowSeconds };
  app.post(
    '/v1/checks/calculate',
    {
      schema: {
        operationId: 'calculateCheck',
        errors: CHECK_ERRORS,
        tags,
        summary: 'What a check would earn and redeem, with display text; writes nothing',
        description: 'external_id is optional here.',
        body: CalculateBody,
        response: withErrors({ 200: CheckCalculation }),
      },
    },
    (req) => calculateCheck(app.deps.db, placeCallerOf(req), req.body, ctx),
  );

  app.post(
    '/v1/checks',
    {
      schema: {
        operationId: 'applyCheck',
        errors: [...CHECK_ERRORS, 'external_id_reused', 'balance_conflict'],
        tags,
        summary: 'Apply a check: 201 the transaction; the same external_id and body again: 200, Idempotent-Replayed: true',
        description: '409 external_id_reused: the same external_id with another body; 409 balance_conflict: retry with the same external_id.',
        body: CheckBody,
        response: withErrors({ 200: Transaction, 201: Transaction }),
      },
    },
    (req, reply) =>
      runMutationWithStatus(
        req,
        reply,
        async (trx, key) => {
          const { transaction, replayed } = await applyCheck(trx, placeCallerOf(req), req.body, ctx, eventRequestOf(req), key);
          return { status: replayed ? 200 : 201, body: transaction, replayed };
        },
        { folded: { status: 201 } },
      ),
  );

  app.post(
    '/v1/holds/:id/capture',
    {
      schema: {
        operationId: 'captureHold',
        errors: ['insufficient_balance', 'redeem_limit_exceeded', 'transaction_not_found', ...HOLD_ERRORS],
        tags: ['Holds'],
        summary: "Pay an applied check (external_id) with the hold: the check's numbers are worked out again with the redemption",
        description:
          'For tills that apply the check first. The check must be the same member\'s, completed, without redemption or refunds. ' +
          'Goes through the same calculation and write as a check: the per-check cap of the calling key and the per-day cap of the check\'s own day apply, and the check never earns more than it did. ' +
          'Emits transaction.updated. ' +
          '402 insufficient_balance when the redemption plus the earning it takes back would leave available below zero.',
        params: Type.Object({ id: Type.String() }),
        body: CaptureBody,
        response: withErrors({ 200: Transaction }),
      },
    },
    (req, reply) =>
      runMutation(req, reply, 200, (trx, key) => captureHoldIntoCheck(trx, placeCallerOf(req), req.params.id, req.body, ctx, eventRequestOf(req), key), {
        folded: true,
      }),
  );

  app.get(
    '/v1/transactions',
    {
      schema: {
        operationId: 'listTransactions',
        tags,
        summary: 'Transactions, newest first',
        querystring: Type.Object(
          {
            ...PageQuery,
            member_id: Type.Optional(Type.String({ format: 'uuid' })),
            status: Type.Optional(Type.Union([Type.Literal('completed'), Type.Literal('voided')])),
          },
          { additionalProperties: false },
        ),
        response: withErrors({ 200: ListOf(Transaction) }),
      },
    },
    (req) => listTransactions(app.deps.db, callerOf(req), pageFromQuery(req.query), req.query),
  );

  app.get(
    '/v1/transactions/:external_id',
    {
      schema: { operationId: 'getTransaction', errors: ['transaction_not_found', 'register_id_required'], tags, summary: 'A transaction by its external_id', params: TransactionParams, querystring: RegisterQuery, response: withErrors({ 200: Transaction }) },
    },
    (req) => getTransaction(app.deps.db, placeCallerOf(req), req.params.external_id, req.query.register_id),
  );

  app.post(
    '/v1/transactions/:external_id/void',
    {
      schema: {
        operationId: 'voidTransaction',
        errors: ['transaction_not_found', 'register_id_required'],
        tags,
        summary: 'Void a check: redeemed cashback comes back, earned goes (the balance may go negative)',
        description: 'Send no body; register_id (when checks are numbered per register) goes in the query string.',
        params: TransactionParams,
        querystring: RegisterQuery,
        response: withErrors({ 200: Transaction }),
      },
    },
    (req, reply) =>
      runMutation(
        req,
        reply,
        200,
        async (trx, key) => (await voidTransaction(trx, placeCallerOf(req), req.params.external_id, req.query.register_id, app.deps.clock, key)).transaction,
        { folded: true },
      ),
  );

  app.post(
    '/v1/transactions/:external_id/refunds',
    {
      schema: {
        operationId: 'refundTransaction',
        errors: ['refund_exceeds_check', 'transaction_not_found', 'external_id_reused', 'register_id_required'],
        tags,
        summary: 'Refund part of a check; earned and redeemed cashback are reversed in proportion',
        params: TransactionParams,
        body: RefundBody,
        response: withErrors({ 200: Refund, 201: Refund }),
      },
    },
    (req, reply) =>
      runMutationWithStatus(
        req,
        reply,
        async (trx, key) => {
          const { refund, replayed } = await refundTransaction(trx, placeCallerOf(req), req.params.external_id, req.body, app.deps.clock, eventRequestOf(req), key);
          return { status: replayed ? 200 : 201, body: refund, replayed };
        },
        { folded: { status: 201 } },
      ),
  );
}
