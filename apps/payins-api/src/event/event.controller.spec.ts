import { plainToInstance } from 'class-transformer';
import { asBusinessId, Caller } from '@pcs/kernel';
import type { EventLogService } from '@pcs/notifications';
import { EventController } from './event.controller';
import { ListEventsQuery } from './event.dto';

/**
 * The event log's controller against its service: `paymentIntentId` filters
 * by the event's subject, `delivered` is read as a boolean (absent: either),
 * and a redelivery names the endpoint. The service is a jest stand-in;
 * test/webhooks.e2e-spec.ts runs the routes over HTTP on PostgreSQL.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';
const intentId = '3f1e2d4c-5b6a-4978-8695-a4b3c2d1e0f9';

describe('EventController', () => {
  it('lists by type, merchant, subject and delivery, in the payins envelope', async () => {
    const event = { eventId: 'e-1', type: 'payment_intent.succeeded' };
    const log = { list: jest.fn().mockResolvedValue({ items: [event], page: 1, limit: 10, total: 1 }) };
    const controller = new EventController(log as unknown as EventLogService);
    const ask = (delivered?: string) =>
      controller.list(
        caller,
        plainToInstance(ListEventsQuery, {
          type: 'payment_intent.succeeded',
          merchantId,
          paymentIntentId: intentId,
          delivered,
          page: 1,
          limit: 10,
        }),
      );
    expect(await ask('false')).toMatchObject([{ rowCount: 1, results: [event] }]);
    await ask('true');
    await ask(undefined);
    expect(log.list.mock.calls.map(([, filters]) => filters)).toEqual([
      { type: 'payment_intent.succeeded', merchantId, subjectId: intentId, delivered: false },
      { type: 'payment_intent.succeeded', merchantId, subjectId: intentId, delivered: true },
      { type: 'payment_intent.succeeded', merchantId, subjectId: intentId, delivered: undefined },
    ]);
  });

  it('reads one event and redelivers it to the endpoint named', async () => {
    const log = { get: jest.fn().mockResolvedValue({ eventId: 'e-1' }), redeliver: jest.fn().mockResolvedValue({ eventId: 'e-1' }) };
    const controller = new EventController(log as unknown as EventLogService);
    await controller.get(caller, 'e-1');
    await controller.redeliver(caller, 'e-1', { webhookEndpointId: 'we-1' });
    expect(log.get).toHaveBeenCalledWith(caller, 'e-1');
    expect(log.redeliver).toHaveBeenCalledWith(caller, 'e-1', 'we-1');
  });
});
