import { ApiProperty } from '@nestjs/swagger';
import { EVENT_TYPES } from '@pcs/events';

export class WebhookEndpointResponse {
  @ApiProperty({ format: 'uuid' }) webhookEndpointId: string;
  @ApiProperty() url: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ enum: EVENT_TYPES, isArray: true }) enabledEvents: string[];
  @ApiProperty() disabled: boolean;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "null: the business's endpoint" }) merchantId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class WebhookEndpointWithSecretResponse extends WebhookEndpointResponse {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'Shown only in this answer' }) secret: string;
}

export class WebhookEndpointDeletedResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ format: 'uuid' }) webhookEndpointId: string;
}
