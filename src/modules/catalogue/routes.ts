// HTTP routes for the catalogue: products by SKU (one, bulk), and category names; money rules stay with the owner.
import { Type } from 'typebox';
import { callerOf, type App } from '../../http/context.js';
import { runMutation, runMutationWithStatus } from '../../http/idempotency.js';
import { withErrors } from '../../http/responses.js';
import { ListOf, PageQuery, pageFromQuery } from '../../shared/pagination.js';
import {
  BulkProducts,
  BulkProductsResult,
  Category,
  CategoryBody,
  CategoryParams,
  Product,
  ProductBody,
  SkuParams,
} from './schemas.js';
import * as service from './service.js';

const tags = ['Catalogue'];
const DeletedProduct = Type.Object({ object: Type.Literal('product'), sku: Type.String(), deleted: Type.Literal(true) }, { title: 'DeletedProduct' });

export async function catalogueRoutes(app: App): Promise<void> {
  app.get(
    '/v1/catalog/products',
    {
      schema: {
        operationId: 'listProducts',
        tags,
        summary: 'List products, newest first',
        querystring: Type.Object({ ...PageQuery, category: Type.Optional(Type.String({ maxLength: 64 })) }, { additionalProperties: false }),
        response: withErrors({ 200: ListOf(Product) }),
      },
    },
    (req) => service.listProducts(app.deps.db, callerOf(req), pageFromQuery(req.query), req.query),
  );

  app.get(
    '/v1/catalog/products/:sku',
    { schema: { operationId: 'getProduct', errors: ['product_not_found'], tags, summary: 'Get a product by SKU', params: SkuParams, response: withErrors({ 200: Product }) } },
    (req) => service.getProduct(app.deps.db, callerOf(req), req.params.sku),
  );

  app.put(
    '/v1/catalog/products/:sku',
    {
      schema: {
        operationId: 'putProduct',
        tags,
        summary: 'Create (201) or replace (200) a product; a new category it names is created',
        params: SkuParams,
        body: ProductBody,
        response: withErrors({ 200: Product, 201: Product }),
      },
    },
    (req, reply) =>
      runMutationWithStatus(req, reply, async (trx) => {
        const { product, created } = await service.putProduct(trx, callerOf(req), req.params.sku, req.body);
        return { status: created ? 201 : 200, body: product };
      }),
  );

  app.delete(
    '/v1/catalog/products/:sku',
    { schema: { operationId: 'deleteProduct', errors: ['product_not_found'], tags, summary: 'Remove a product', params: SkuParams, response: withErrors({ 200: DeletedProduct }) } },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.deleteProduct(trx, callerOf(req), req.params.sku)),
  );

  app.post(
    '/v1/catalog/products/bulk',
    {
      schema: {
        operationId: 'uploadProducts',
        tags,
        summary: 'Upload up to 1000 products at once, all or nothing',
        description: 'Any invalid item refuses the whole call with 400 parameter_invalid, param "items", and error.errors listing every bad item.',
        body: BulkProducts,
        response: withErrors({ 200: BulkProductsResult }),
      },
    },
    (req, reply) => runMutation(req, reply, 200, (trx) => service.syncProducts(trx, callerOf(req), req.body)),
  );

  app.get(
    '/v1/catalog/categories',
    {
      schema: {
        operationId: 'listCategories',
        tags,
        summary: 'Categories with their money rules, newest first',
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: withErrors({ 200: ListOf(Category) }),
      },
    },
    (req) => service.listCategories(app.deps.db, callerOf(req), pageFromQuery(req.query)),
  );

  app.put(
    '/v1/catalog/categories/:external_id',
    {
      schema: {
        operationId: 'putCategory',
        errors: ['owner_only'],
        tags,
        summary: 'Create (201) or rename (200) a category',
        description: "Money rules (earns_cashback, payable_with_cashback, cashback_percent) are the owner's: sending one is 403 owner_only.",
        params: CategoryParams,
        body: CategoryBody,
        response: withErrors({ 200: Category, 201: Category }),
      },
    },
    (req, reply) =>
      runMutationWithStatus(req, reply, async (trx) => {
        const { category, created } = await service.putCategory(trx, callerOf(req), req.params.external_id, req.body);
        return { status: created ? 201 : 200, body: category };
      }),
  );
}
