import { ProcessorAmountError } from '@pcs/gateways';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MercadoPagoClient, MercadoPagoPayment } from './mercado-pago.client';
import { eventOfPayment, refundsOfPayment } from './mercado-pago.gateway';

/**
 * Mercado Pago's amounts, read exactly (contract §28): a payment's installment plan, its refunds and
 * a refund's answer are read from the decimal text Mercado Pago wrote. An amount that is not one
 * (three decimals in UYU, more digits than a double keeps) fails what reads it: nothing is booked.
 */
const approved = (fields: Partial<MercadoPagoPayment>): MercadoPagoPayment => ({
  id: 1300000001,
  status: 'approved',
  currency_id: 'UYU',
  transaction_amount: 1220,
  ...fields,
});

describe('Mercado Pago amounts, read exactly (contract §28)', () => {
  it('reads an installment plan in minor units, and refuses one whose amount has more decimals than its currency', () => {
    const plan = { installments: 3, transaction_details: { installment_amount: 406.67, total_paid_amount: 1220.01 } };
    expect(eventOfPayment(approved(plan)).plan).toEqual({ installments: 3, installmentAmount: 40667, payerTotalAmount: 122001 });
    // Math.round(16.985 * 100) would book 16.99 (1699) as if Mercado Pago had said so.
    const odd = approved({ installments: 6, transaction_details: { installment_amount: 16.985, total_paid_amount: 101.91 } });
    expect(() => eventOfPayment(odd)).toThrow(ProcessorAmountError);
    expect(() => eventOfPayment(odd)).toThrow('payment 1300000001 installment_amount 16.985 is not an amount in UYU');
  });

  it('reads the card a payment was made with (contract §30: the card-testing guard) when its first six, last four and expiry are there', () => {
    const card = { first_six_digits: '450995', last_four_digits: '3704', expiration_month: 11, expiration_year: 2030 };
    expect(eventOfPayment(approved({ status: 'rejected', card })).card).toEqual({ bin: '450995', last4: '3704', expiry: '11/30' });
    expect(eventOfPayment(approved({ card: { ...card, expiration_month: 3 } })).card).toEqual({
      bin: '450995',
      last4: '3704',
      expiry: '03/30',
    });
    // A part missing or not a card's: no fingerprint (the address and the link still count).
    for (const partial of [
      { last_four_digits: '3704' },
      { ...card, expiration_month: 13 },
      { ...card, first_six_digits: '4509' },
      { ...card, last_four_digits: null },
    ])
      expect(eventOfPayment(approved({ card: partial })).card).toBeUndefined();
  });

  it('refuses a payment’s refund whose amount is not exactly one', () => {
    expect(refundsOfPayment(approved({ refunds: [{ id: 9, payment_id: 1300000001, amount: 300, status: 'approved' }] }))).toEqual([
      expect.objectContaining({ reference: '9', amount: 30000, status: 'APPROVED' }),
    ]);
    const odd = approved({ refunds: [{ id: 9, payment_id: 1300000001, amount: 300.001, status: 'approved' }] });
    expect(() => refundsOfPayment(odd)).toThrow(ProcessorAmountError);
  });

  describe('through its client, from the text of its answer', () => {
    let server: http.Server;
    let baseUrl: string;
    let answer = '';
    beforeAll(async () => {
      server = http.createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          response.writeHead(201, { 'content-type': 'application/json' });
          response.end(answer);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('keeps a refund’s amount that a double would round as its text, which no amount reader takes', async () => {
      const client = new MercadoPagoClient(baseUrl, 2000, 'TEST-token');
      answer = '{"id":77,"payment_id":1300000001,"amount":1220.50000000000000001,"status":"approved"}';
      const refund = await client.refund(1300000001, 1220.5, 'refund-1');
      // JSON.parse would have read 1220.5, and 1220.50 would have been booked.
      expect(String(refund.amount)).toBe('1220.50000000000000001');
      const payment = approved({ refunds: [refund] });
      expect(() => refundsOfPayment(payment)).toThrow('1220.50000000000000001 is not an amount in UYU');
      answer = '{"id":78,"payment_id":1300000001,"amount":1220.50,"status":"approved"}';
      expect((await client.refund(1300000001, 1220.5, 'refund-2')).amount).toBe(1220.5);
    });
  });
});
