import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { EVENT_TYPES } from '@pcs/events';
import type { EventType } from '@pcs/events';
import { Optional } from '@pcs/http';

const URL_DESCRIPTION =
  'https only; http://localhost or http://127.0.0.1 only while WEBHOOKS_ALLOW_LOCALHOST is true; never a private, loopback or link-local address';

/** The optional fields registration and update share. */
function EnabledEventsField(description?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ enum: EVENT_TYPES, isArray: true, description }),
    Optional(),
    IsArray(),
    ArrayMaxSize(EVENT_TYPES.length * 2),
    IsIn(EVENT_TYPES, { each: true }),
  );
}

function DescriptionField(): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional({ maxLength: 256 }), Optional(), IsString(), MaxLength(256));
}

/** Webhook endpoint registration (contract §14). */
export class CreateWebhookEndpointDto {
  @ApiProperty({ maxLength: 2048, example: 'https://shop.example.com/webhooks/payments', description: URL_DESCRIPTION })
  @IsString()
  @MaxLength(2048)
  url: string;

  @EnabledEventsField('Default: every type')
  enabledEvents?: EventType[];

  @DescriptionField()
  description?: string;

  @ApiPropertyOptional({ format: 'uuid', description: "One of the business's merchants: only its events. Absent: all merchants' events" })
  @Optional()
  @IsUUID('all')
  merchantId?: string;
}

export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ maxLength: 2048, description: URL_DESCRIPTION })
  @Optional()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @EnabledEventsField()
  enabledEvents?: EventType[];

  @DescriptionField()
  description?: string;

  @ApiPropertyOptional({ description: 'true: nothing is delivered to it; pending deliveries are marked failed' })
  @Optional()
  @IsBoolean()
  disabled?: boolean;
}

export class RotateWebhookSecretDto {
  @ApiPropertyOptional({ minimum: 0, maximum: 10080, default: 1440, description: 'How long the previous secret also signs' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(10080)
  graceMinutes?: number;
}
