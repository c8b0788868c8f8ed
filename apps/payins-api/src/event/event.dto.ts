import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsUUID } from 'class-validator';
import { EVENT_TYPES } from '@pcs/events';
import type { EventType } from '@pcs/events';
import { Optional, PageQueryDto } from '@pcs/http';

export class ListEventsQuery extends PageQueryDto {
  @ApiPropertyOptional({ enum: EVENT_TYPES })
  @Optional()
  @IsIn(EVENT_TYPES)
  type?: EventType;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: "One payment intent's story: its payment_intent.* and refund.* events" })
  @Optional()
  @IsUUID('all')
  paymentIntentId?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'true: every delivery of the event succeeded (or it had none); false: some delivery is pending or failed',
  })
  @Optional()
  @IsIn(['true', 'false'])
  delivered?: 'true' | 'false';
}

export class RedeliverEventDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Absent: every endpoint that had a delivery of it or wants it now' })
  @Optional()
  @IsUUID('all')
  webhookEndpointId?: string;
}
