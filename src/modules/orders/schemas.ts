// Table orders (D14): the order resource, the guest's order body, the till's status move, the state graph.
import { Type, type Static } from 'typebox';

export const ORDER_STATUSES = ['new', 'accepted', 'rejected', 'preparing', 'ready', 'served', 'closed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Where each status may move; every other move is 409 invalid_status_transition. */
export const NEXT_STATUSES: Record<OrderStatus, OrderStatus[]> = {
  new: ['accepted', 'rejected', 'cancelled'],
  accepted: ['preparing', 'cancelled'],
  preparing: ['ready', 'cancelled'],
  ready: ['served', 'cancelled'],
  served: ['closed'],
  closed: [],
  rejected: [],
  cancelled: [],
};

const Status = Type.Union(ORDER_STATUSES.map((s) => Type.Literal(s)) as [ReturnType<typeof Type.Literal<'new'>>]);

export const OrderItem = Type.Object({
  external_id: Type.String(),
  name: Type.String(),
  quantity: Type.Integer(),
  unit_price: Type.Integer({ description: "The menu's price when the order was placed." }),
  amount: Type.Integer(),
  note: Type.Union([Type.String(), Type.Null()]),
}, { title: 'OrderItem' });

export const Order = Type.Object({
  object: Type.Literal('order'),
  id: Type.String({ format: 'uuid' }),
  table_code: Type.String(),
  table_name: Type.String(),
  venue_id: Type.String({ format: 'uuid', description: 'The venue whose table ordered.' }),
  status: Type.String({ description: ORDER_STATUSES.join(', ') }),
  status_reason: Type.Union([Type.String(), Type.Null()]),
  items: Type.Array(OrderItem),
  subtotal: Type.Integer(),
  comment: Type.Union([Type.String(), Type.Null()]),
  livemode: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
}, { title: 'Order' });
export type Order = Static<typeof Order>;

export const MAX_QUANTITY = 50;

export const PlaceOrder = Type.Object(
  {
    table_code: Type.String({ minLength: 1, maxLength: 32 }),
    items: Type.Array(
      Type.Object(
        {
          external_id: Type.String({ minLength: 1, maxLength: 64 }),
          quantity: Type.Integer({ minimum: 1, maximum: MAX_QUANTITY }),
          note: Type.Optional(Type.String({ maxLength: 200 })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
    comment: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
export type PlaceOrder = Static<typeof PlaceOrder>;

export const MoveOrder = Type.Object(
  { status: Status, reason: Type.Optional(Type.String({ maxLength: 300, description: 'Shown to staff, e.g. why an order was rejected.' })) },
  { additionalProperties: false },
);
export type MoveOrder = { status: OrderStatus; reason?: string };

export const OrderParams = Type.Object({ id: Type.String() });
export const PublicOrderParams = Type.Object({ venue_slug: Type.String({ maxLength: 64 }) });
