import { Body, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiStandardErrors, CurrentCaller, SignedController, UuidParam, SignatureVersionRequired, RequestExample } from '@pcs/http';
import { asMerchantId } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { WebhookEndpointService } from '@pcs/notifications';
import { CreateWebhookEndpointDto, RotateWebhookSecretDto, UpdateWebhookEndpointDto } from './webhook-endpoint.dto';
import { WebhookEndpointDeletedResponse, WebhookEndpointResponse, WebhookEndpointWithSecretResponse } from './webhook-endpoint.responses';

/** Webhook endpoints (contract §14): a business's receives all its merchants' events, a merchant's only its own. */
@SignedController('webhook-endpoint', 'webhooks', 'merchants:write')
export class WebhookEndpointController {
  constructor(private readonly endpoints: WebhookEndpointService) {}

  @Post()
  @SignatureVersionRequired(3)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Register a webhook endpoint',
    description: 'Answers its `secret`, shown only here.',
    operationId: 'createWebhookEndpoint',
  })
  @RequestExample(CreateWebhookEndpointDto, {
    url: 'https://shop.example.com/webhooks/payments',
    enabledEvents: ['payment_intent.succeeded', 'refund.succeeded'],
    description: 'Order system',
  })
  @ApiOkResponse({ type: WebhookEndpointWithSecretResponse })
  @ApiStandardErrors()
  create(@CurrentCaller() caller: Caller, @Body() body: CreateWebhookEndpointDto): Promise<WebhookEndpointWithSecretResponse> {
    return this.endpoints.create(caller, {
      ...body,
      merchantId: asMerchantId(body.merchantId),
    }) as Promise<WebhookEndpointWithSecretResponse>;
  }

  @Get()
  @ApiOperation({
    summary: 'List webhook endpoints',
    description: "The merchant's webhook endpoints, without their signing secrets (a secret is shown once, when it is created or rotated).",
    operationId: 'listWebhookEndpoints',
  })
  @ApiOkResponse({ type: [WebhookEndpointResponse] })
  @ApiStandardErrors()
  list(@CurrentCaller() caller: Caller): Promise<WebhookEndpointResponse[]> {
    return this.endpoints.list(caller) as Promise<WebhookEndpointResponse[]>;
  }

  @Get(':webhookEndpointId')
  @ApiOperation({
    summary: 'Get a webhook endpoint',
    description: 'One webhook endpoint of the caller, without its signing secret.',
    operationId: 'getWebhookEndpoint',
  })
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiStandardErrors()
  get(@CurrentCaller() caller: Caller, @UuidParam('webhookEndpointId') id: string): Promise<WebhookEndpointResponse> {
    return this.endpoints.get(caller, id) as Promise<WebhookEndpointResponse>;
  }

  @Patch(':webhookEndpointId')
  @SignatureVersionRequired(3)
  @ApiOperation({
    summary: 'Update a webhook endpoint',
    description:
      'Changes url, enabledEvents, description or disabled; the fields not sent keep their values. A disabled endpoint receives nothing until enabled again.',
    operationId: 'updateWebhookEndpoint',
  })
  @RequestExample(UpdateWebhookEndpointDto, { description: 'Order system (backup)', disabled: false })
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiStandardErrors()
  update(
    @CurrentCaller() caller: Caller,
    @UuidParam('webhookEndpointId') id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointResponse> {
    return this.endpoints.update(caller, id, body) as Promise<WebhookEndpointResponse>;
  }

  @Delete(':webhookEndpointId')
  @SignatureVersionRequired(3)
  @ApiOperation({
    summary: 'Delete a webhook endpoint',
    description: 'Removes the endpoint: no new deliveries go to it. Answers { success: true, webhookEndpointId }.',
    operationId: 'deleteWebhookEndpoint',
  })
  @ApiOkResponse({ type: WebhookEndpointDeletedResponse })
  @ApiStandardErrors()
  async delete(@CurrentCaller() caller: Caller, @UuidParam('webhookEndpointId') id: string): Promise<WebhookEndpointDeletedResponse> {
    await this.endpoints.delete(caller, id);
    return { success: true, webhookEndpointId: id };
  }

  @Post(':webhookEndpointId/rotate-secret')
  @SignatureVersionRequired(3)
  @HttpCode(200)
  @ApiOperation({
    summary: "Rotate a webhook endpoint's secret",
    description: 'Answers the new secret; during `graceMinutes` every delivery carries both signatures.',
    operationId: 'rotateWebhookSecret',
  })
  @RequestExample(RotateWebhookSecretDto, { graceMinutes: 60 })
  @ApiOkResponse({ type: WebhookEndpointWithSecretResponse })
  @ApiStandardErrors()
  rotate(
    @CurrentCaller() caller: Caller,
    @UuidParam('webhookEndpointId') id: string,
    @Body() body: RotateWebhookSecretDto,
  ): Promise<WebhookEndpointWithSecretResponse> {
    return this.endpoints.rotateSecret(caller, id, body.graceMinutes) as Promise<WebhookEndpointWithSecretResponse>;
  }
}
