import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_TYPES } from '@pcs/events';

export class EventDataResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The resource as the payins API shows it (payment intent, payin of the refund, link)',
  })
  object: Record<string, unknown>;
}

/** An event exactly as webhooks deliver it (contract §14). */
export class EventResponse {
  @ApiProperty({ format: 'uuid', description: 'Also the `webhook-id` of its deliveries' }) id: string;
  @ApiProperty({ enum: EVENT_TYPES }) type: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'uuid' }) businessId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ description: "Increasing per payment intent (its refunds' events included) or per link", type: 'integer' })
  sequence: number;
  @ApiProperty({ type: EventDataResponse }) data: EventDataResponse;
}

export class DeliveryAttemptResponse {
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The HTTP status, or null when none came back' }) status: number | null;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
  @ApiProperty({ type: 'integer' }) durationMs: number;
}

export class DeliveryResponse {
  @ApiProperty({ format: 'uuid' }) webhookEndpointId: string;
  @ApiProperty() url: string;
  @ApiProperty() delivered: boolean;
  @ApiProperty({ type: [DeliveryAttemptResponse] }) attempts: DeliveryAttemptResponse[];
}

export class EventWithDeliveriesResponse extends EventResponse {
  @ApiPropertyOptional({ type: [DeliveryResponse] }) deliveries: DeliveryResponse[];
}

export class EventPageResponse {
  @ApiProperty({ example: '1' }) currentPage: string;
  @ApiProperty({ example: '10' }) pageSize: string;
  @ApiProperty({ type: 'integer' }) rowCount: number;
  @ApiProperty({ type: 'integer' }) pageCount: number;
  @ApiProperty({ type: [EventResponse] }) results: EventResponse[];
}
