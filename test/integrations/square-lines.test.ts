// An order's line items as a check's lines (src/integrations/square/lines.ts), against figures worked out by hand.
import { describe, expect, it } from 'vitest';
import { checkLines } from '../../src/integrations/square/lines.js';
import type { Order, Payment } from '../../src/integrations/square/objects.js';

const EUR = (amount: number) => ({ amount, currency: 'EUR' });
const payment: Payment = { id: 'P1', status: 'COMPLETED', amount_money: EUR(1000), location_id: 'L1', created_at: '2026-11-22T10:00:00Z' };
const order = (line_items: Order['line_items'], tenders: Order['tenders'] = []): Order => ({ id: 'O1', location_id: 'L1', line_items, tenders });

describe('Square order lines', () => {
  it('a line with VAT included in its total (as in the EU) earns on its price before VAT: 12.30 with 2.30 VAT is 10.00', () => {
    const lines = checkLines(order([{ name: 'Latte', quantity: '1', base_price_money: EUR(1230), gross_sales_money: EUR(1230), total_tax_money: EUR(230), total_money: EUR(1230) }]), payment);
    expect(lines).toEqual([{ name: 'Latte', quantity: 1, unit_price: 1000 }]);
  });

  it('added tax and a line service charge are left out; a discount per unit that divides evenly keeps the quantity', () => {
    const lines = checkLines(
      order([{ name: 'Pint', quantity: '3', base_price_money: EUR(600), gross_sales_money: EUR(1800), total_discount_money: EUR(300), total_tax_money: EUR(150), total_service_charge_money: EUR(100), total_money: EUR(1750) }]),
      payment,
    );
    expect(lines).toEqual([{ name: 'Pint', quantity: 3, unit_price: 500 }]);
  });

  it('gift cards pay 5.00 of 9.00 of lines: 5.00 is taken off in proportion (2.78 and 2.22), so 4.00 earns', () => {
    const lines = checkLines(
      order(
        [
          { name: 'Cake', quantity: '1', base_price_money: EUR(500), total_money: EUR(500) },
          { name: 'Tea', quantity: '1', base_price_money: EUR(400), total_money: EUR(400) },
        ],
        [{ type: 'SQUARE_GIFT_CARD', amount_money: EUR(500) }, { type: 'CARD', amount_money: EUR(600), tip_money: EUR(200) }],
      ),
      payment,
    );
    expect(lines.map((l) => l.unit_price)).toEqual([500 - 278, 400 - 222]);
    expect(lines.reduce((s, l) => s + l.unit_price * l.quantity, 0)).toBe(400);
  });

  it('an exchange (a 9.00 latte returned, a 12.00 sandwich bought) earns on the 3.00 the guest paid, not on 12.00 again', () => {
    const exchange: Order = {
      ...order([{ name: 'Sandwich', quantity: '1', base_price_money: EUR(1200), total_money: EUR(1200) }], [{ type: 'CARD', amount_money: EUR(300) }]),
      returns: [{ return_line_items: [{ name: 'Latte', quantity: '2', base_price_money: EUR(450), gross_return_money: EUR(900), total_money: EUR(900) }] }],
    };
    expect(checkLines(exchange, payment)).toEqual([{ name: 'Sandwich', quantity: 1, unit_price: 300 }]);
    // An even exchange earns nothing.
    const even = { ...exchange, returns: [{ return_line_items: [{ name: 'Latte', quantity: '1', total_money: EUR(1200) }] }] };
    expect(checkLines(even, payment).map((l) => l.unit_price)).toEqual([0]);
  });

  it('a quantity sold by weight keeps three decimals; a zero quantity is no line; a long name is cut between characters', () => {
    const name = `${'x'.repeat(199)}🍕`;
    const lines = checkLines(
      order([
        { name: 'Cheese', quantity: '0.2505', base_price_money: EUR(2000), total_money: EUR(501) },
        { name: 'Nothing', quantity: '0', base_price_money: EUR(100), total_money: EUR(0) },
        { name, quantity: '1', base_price_money: EUR(100), total_money: EUR(100) },
      ]),
      payment,
    );
    expect(lines[0]).toEqual({ name: '0.2505 × Cheese', quantity: 1, unit_price: 501 });
    expect(lines).toHaveLength(2);
    expect(lines[1]!.name).toBe('x'.repeat(199));
  });

  it('a payment without an order is one line of what it paid, the tip left out', () => {
    expect(checkLines(undefined, { ...payment, receipt_number: 'R42', tip_money: EUR(150) })).toEqual([{ name: 'Square payment R42', quantity: 1, unit_price: 1000 }]);
  });
});
