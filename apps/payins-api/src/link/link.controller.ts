import { Body, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import {
  ApiStandardErrors,
  CurrentCaller,
  ErrorResponse,
  Idempotent,
  OperationId,
  SignedController,
  SignatureVersionRequired,
  UuidParam,
  RequestExample,
} from '@pcs/http';
import { asMerchantId, Currency, Money, moneyFromWire, wireAmount } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { asLinkId, LinkService } from '@pcs/links';
import { LinkPaymentIntentService } from '@pcs/payments';
import { presentCreation } from '../payment-intent/payment-intent.presenter';
import { PaymentIntentCreationResponse } from '../payment-intent/payment-intent.responses';
import { CreateLinkDto, LinkPaymentIntentDto, ListLinksQuery, ShareLinkDto, UpdateLinkDto } from './dto/link-requests.dto';
import { presentLink } from './link.presenter';
import { LinkDeletedResponse, LinkResponse, LinkSharedResponse } from './link.responses';

const usedOrExpired = ApiConflictResponse({ type: ErrorResponse, description: 'Payins:LINK_ALREADY_USED or Payins:LINK_EXPIRED' });
const expiration = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

/** Payment links (operations 24, 29–33, 35; contract §12). */
@SignedController('link', 'links', 'payments:write')
export class LinkController {
  constructor(
    private readonly links: LinkService,
    private readonly payments: LinkPaymentIntentService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List links', description: 'Newest first; `status` ACTIVE, USED or EXPIRED.', operationId: 'listLinks' })
  @ApiOkResponse({ type: [LinkResponse] })
  @ApiStandardErrors()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListLinksQuery): Promise<LinkResponse[]> {
    const page = await this.links.list(caller, { merchantId: asMerchantId(query.merchantId), status: query.status }, query.toPageRequest());
    return page.items.map(presentLink);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a link',
    description:
      'Creates a payment link: a page a payer opens to pay a fixed amount once. Without expiration it expires after 7 days; an expiration in the past is a 400.',
    operationId: 'createLink',
  })
  @RequestExample(CreateLinkDto, {
    amount: 1220,
    vatPercentage: 22,
    currency: 'UYU',
    merchantCountryProcessors: ['2c4e6a8b-1d3f-4e5a-9b7c-6d8e0f1a2b3c'],
    country: 'URY',
    description: 'Annual membership',
    reference: 'membership-2027',
    expirationDate: '2027-01-31T23:59:59Z',
  })
  @ApiOkResponse({ type: LinkResponse })
  @ApiStandardErrors()
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateLinkDto): Promise<LinkResponse> {
    return presentLink(
      await this.links.create(caller, {
        amount: moneyFromWire('amount', body.amount, body.currency),
        vatPercentage: body.vatPercentage,
        merchantCountryProcessors: body.merchantCountryProcessors,
        country: body.country,
        merchantId: asMerchantId(body.merchantId),
        description: body.description,
        reference: body.reference,
        expirationDate: expiration(body.expirationDate),
      }),
    );
  }

  @Patch(':linkId')
  @ApiOperation({ summary: 'Update a link', description: 'Only an ACTIVE link changes.', operationId: 'updateLink' })
  @RequestExample(UpdateLinkDto, { amount: 1300, description: 'Annual membership (renewal)' })
  @ApiOkResponse({ type: LinkResponse })
  @ApiStandardErrors()
  @usedOrExpired
  async update(@CurrentCaller() caller: Caller, @UuidParam('linkId') id: string, @Body() body: UpdateLinkDto): Promise<LinkResponse> {
    const linkId = asLinkId(id);
    let amount: Money | undefined;
    if (body.amount !== undefined || body.currency !== undefined) {
      // The amount is read in the request's currency, else the link's; a new currency alone re-reads the link's amount.
      const current = (await this.links.get(caller, linkId)).link.snapshot();
      const currency: Currency = body.currency ?? current.currency;
      amount = moneyFromWire('amount', body.amount ?? wireAmount(current.amount, current.currency), currency);
    }
    return presentLink(
      await this.links.update(caller, linkId, {
        amount,
        vatPercentage: body.vatPercentage,
        merchantCountryProcessors: body.merchantCountryProcessors,
        description: body.description,
        reference: body.reference,
        expirationDate: expiration(body.expirationDate),
      }),
    );
  }

  @Get(':linkId/validate')
  @ApiOperation({ summary: 'Validate a link', description: '404 unknown or deleted; 409 used or expired.', operationId: 'validateLink' })
  @ApiOkResponse({ type: LinkResponse })
  @ApiStandardErrors()
  @usedOrExpired
  async validate(@CurrentCaller() caller: Caller, @UuidParam('linkId') id: string): Promise<LinkResponse> {
    return presentLink(await this.links.validate(caller, asLinkId(id)));
  }

  @Get(':linkId')
  @ApiOperation({
    summary: 'Get a link',
    description: 'One link of the caller in any status (ACTIVE, USED, EXPIRED); a deleted link is a 404.',
    operationId: 'getLink',
  })
  @ApiOkResponse({ type: LinkResponse })
  @ApiStandardErrors()
  async get(@CurrentCaller() caller: Caller, @UuidParam('linkId') id: string): Promise<LinkResponse> {
    return presentLink(await this.links.get(caller, asLinkId(id)));
  }

  @Post(':linkId/share')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Share a link',
    description: 'Emails the link to the receiver (Spanish, English below); answered once the email is queued. Only an ACTIVE link.',
    operationId: 'shareLink',
  })
  @RequestExample(ShareLinkDto, { receiverEmail: 'ana@example.uy', receiverName: 'Ana' })
  @ApiOkResponse({ type: LinkSharedResponse })
  @ApiStandardErrors()
  @usedOrExpired
  async share(@CurrentCaller() caller: Caller, @UuidParam('linkId') id: string, @Body() body: ShareLinkDto): Promise<LinkSharedResponse> {
    await this.links.share(caller, asLinkId(id), { receiverEmail: body.receiverEmail.trim(), receiverName: body.receiverName.trim() });
    return { success: true, linkId: id };
  }

  @Delete(':linkId')
  @SignatureVersionRequired(3)
  @ApiOperation({ summary: 'Delete a link', description: 'A used link is a 400 Payins:ERROR_DELETING_LINK.', operationId: 'deleteLink' })
  @ApiOkResponse({ type: LinkDeletedResponse })
  @ApiStandardErrors()
  async delete(@CurrentCaller() caller: Caller, @UuidParam('linkId') id: string): Promise<LinkDeletedResponse> {
    await this.links.delete(caller, asLinkId(id));
    return { success: true, linkId: id };
  }

  @Post(':linkId/payment-intent')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Create a payment intent from a link',
    description:
      "The intent takes the link's amount, currency, country, VAT and description; the link becomes used in the same transaction.",
    operationId: 'createPaymentIntentFromLink',
  })
  @RequestExample(LinkPaymentIntentDto, { paymentInstrumentTypeName: 'CREDIT_CARD', paymentMethodName: 'VISA' })
  @ApiOkResponse({ type: PaymentIntentCreationResponse })
  @ApiStandardErrors()
  @usedOrExpired
  @ApiUnprocessableEntityResponse({ type: ErrorResponse, description: 'Payins:IDEMPOTENCY_KEY_REUSED' })
  async pay(
    @CurrentCaller() caller: Caller,
    @UuidParam('linkId') id: string,
    @Body() body: LinkPaymentIntentDto,
    @OperationId() operationId?: string,
  ): Promise<PaymentIntentCreationResponse> {
    const linkId = asLinkId(id);
    const { paymentIntentAdditionalInfo, ...rest } = body;
    // A sent amount is read by the service, in the link's currency (the request carries none).
    const intent = await this.payments.create(
      caller,
      linkId,
      { ...rest, paymentIntentAdditionalInfo: paymentIntentAdditionalInfo ? { ...paymentIntentAdditionalInfo } : undefined },
      operationId,
    );
    return presentCreation(intent);
  }
}
