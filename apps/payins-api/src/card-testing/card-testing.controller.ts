import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { ApiStandardErrors, CurrentCaller, SignedController, UuidParam } from '@pcs/http';
import { asMerchantId } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { CardTestingGuard, cardTestingBlockObject } from '@pcs/payments';
import { CardTestingGuardResponse } from '../merchant/merchant.responses';

/** One block of the card-testing guard (contract §30), as the event card_testing.suspected shows it. */
export class CardTestingBlockResponse {
  @ApiProperty({ format: 'uuid' }) blockId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({
    enum: ['CARD', 'ADDRESS', 'LINK'],
    description: 'What is refused: a card fingerprint, a client address, or a link (a B2B checkout: its payment intent)',
  })
  scope: string;
  @ApiProperty({ enum: ['DECLINES_PER_CARD', 'DECLINES_PER_ADDRESS', 'ATTEMPTS_PER_ADDRESS', 'DECLINES_PER_LINK'] })
  reason: string;
  @ApiProperty({ type: 'integer', description: 'The count within the window that reached the limit' }) count: number;
  @ApiProperty({
    example: '203.0.113.x',
    description:
      'An address with its last part masked, a card fingerprint’s first characters, or the link or payment intent; never a card’s digits',
  })
  hint: string;
  @ApiProperty({ enum: ['LINK', 'CHECKOUT', 'SANDBOX'], description: 'The public page the attempts started from' }) page: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The link, or the B2B checkout’s payment intent' })
  saleId: string | null;
  @ApiProperty({ format: 'date-time' }) startedAt: string;
  @ApiProperty({ format: 'date-time', description: 'Refused until then' }) until: string;
  @ApiProperty({ description: 'Whether it still lasts' }) active: boolean;
}

export class CardTestingBlocksResponse {
  @ApiProperty({ type: CardTestingGuardResponse, description: 'The merchant’s guard as configured' }) settings: CardTestingGuardResponse;
  @ApiProperty({ type: [CardTestingBlockResponse], description: 'The blocks of the last 7 days, newest first (at most 200)' })
  blocks: CardTestingBlockResponse[];
}

/** What the card-testing guard of a merchant's public pages refused (contract §30): the dashboard lists it. */
@SignedController('merchant', 'merchant', 'merchants:write')
export class CardTestingController {
  constructor(private readonly guard: CardTestingGuard) {}

  @Get(':merchantId/card-testing/blocks')
  @ApiOperation({
    summary: 'List card-testing blocks',
    description:
      'The cards, client addresses and links the card-testing guard of the merchant’s public pages (link pay page, B2B checkout, sandbox page) refused in the last 7 days, newest first, with the guard’s settings (contract §30). The merchant’s own signed API calls are never refused by it.',
    operationId: 'listCardTestingBlocks',
  })
  @ApiOkResponse({ type: CardTestingBlocksResponse })
  @ApiStandardErrors()
  async blocks(@CurrentCaller() caller: Caller, @UuidParam('merchantId') merchantId: string): Promise<CardTestingBlocksResponse> {
    const { blocks, settings } = await this.guard.blocksOf(caller, asMerchantId(merchantId));
    const now = Date.now();
    return {
      settings: { ...settings },
      blocks: blocks.map((b) => ({
        ...(cardTestingBlockObject(b) as Omit<CardTestingBlockResponse, 'active'>),
        active: b.until.getTime() > now,
      })),
    };
  }
}
