import { Body, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiExtraModels, ApiOkResponse, ApiOperation, getSchemaPath } from '@nestjs/swagger';
import { ApiStandardErrors, CurrentCaller, ErrorResponse, payinsEnvelope, SignedController, UuidParam, RequestExample } from '@pcs/http';
import { asMerchantId } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { EventLogService } from '@pcs/notifications';
import { ListEventsQuery, RedeliverEventDto } from './event.dto';
import { EventPageResponse, EventWithDeliveriesResponse } from './event.responses';

/** The event log and redelivery (contract §14). */
@SignedController('event', 'webhooks', 'merchants:write')
@ApiExtraModels(EventPageResponse)
export class EventController {
  constructor(private readonly log: EventLogService) {}

  @Get()
  @ApiOperation({
    summary: 'List events (paged, newest first)',
    description:
      "The merchant's events (payment_intent.*, refund.*, link.*), newest first, in the payins paged envelope; filter by type, merchant, delivery, and payment intent (one payment's story).",
    operationId: 'listEvents',
  })
  @ApiOkResponse({ schema: { type: 'array', items: { $ref: getSchemaPath(EventPageResponse) } } })
  @ApiStandardErrors()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListEventsQuery) {
    const page = await this.log.list(
      caller,
      {
        type: query.type,
        merchantId: asMerchantId(query.merchantId),
        subjectId: query.paymentIntentId,
        delivered: query.delivered === undefined ? undefined : query.delivered === 'true',
      },
      query.toPageRequest(),
    );
    return payinsEnvelope(page, (event) => event);
  }

  @Get(':eventId')
  @ApiOperation({
    summary: 'Get an event with its deliveries',
    description: 'One event with every delivery attempt made to each webhook endpoint: status, HTTP status and time.',
    operationId: 'getEvent',
  })
  @ApiOkResponse({ type: EventWithDeliveriesResponse })
  @ApiStandardErrors()
  get(@CurrentCaller() caller: Caller, @UuidParam('eventId') id: string): Promise<EventWithDeliveriesResponse> {
    return this.log.get(caller, id) as unknown as Promise<EventWithDeliveriesResponse>;
  }

  @Post(':eventId/redeliver')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Redeliver an event now',
    description: 'Answers the event with its deliveries, the new ones pending.',
    operationId: 'redeliverEvent',
  })
  @RequestExample(RedeliverEventDto, { webhookEndpointId: '7f6e5d4c-3b2a-4918-8a7b-6c5d4e3f2a1b' })
  @ApiOkResponse({ type: EventWithDeliveriesResponse })
  @ApiConflictResponse({
    type: ErrorResponse,
    description: 'Payins:WEBHOOK_ENDPOINT_DISABLED: enable the endpoint before redelivering to it',
  })
  @ApiStandardErrors()
  redeliver(
    @CurrentCaller() caller: Caller,
    @UuidParam('eventId') id: string,
    @Body() body: RedeliverEventDto,
  ): Promise<EventWithDeliveriesResponse> {
    return this.log.redeliver(caller, id, body.webhookEndpointId) as unknown as Promise<EventWithDeliveriesResponse>;
  }
}
