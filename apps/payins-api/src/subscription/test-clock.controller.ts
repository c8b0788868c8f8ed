import { Body, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { TestClock, testClockRepresentation, TestClocksService } from '@pcs/billing';
import {
  ApiStandardErrors,
  CurrentCaller,
  ErrorResponse,
  Idempotent,
  OperationId,
  RequestExample,
  SignedController,
  UuidParam,
} from '@pcs/http';
import { asMerchantId } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { AdvanceTestClockDto, CreateTestClockDto } from './subscription.dto';
import { TestClockResponse } from './subscription.responses';

const present = (clock: TestClock): TestClockResponse => testClockRepresentation(clock);

/** Test clocks (contract §31, as Stripe's): a merchant's own time for its sandbox subscriptions. */
@SignedController('test-clock', 'subscriptions', 'payments:write')
export class TestClockController {
  constructor(private readonly clocks: TestClocksService) {}

  @Post()
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Create a test clock',
    description: 'Subscriptions created with its `testClockId` live at its time and charge sandbox instruments only.',
    operationId: 'createTestClock',
  })
  @RequestExample(CreateTestClockDto, { merchantId: '7d1f0c2e-4b6a-4c8e-9f1a-2b3c4d5e6f70', frozenTime: '2027-01-01T12:00:00Z' })
  @ApiOkResponse({ type: TestClockResponse })
  @ApiStandardErrors()
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateTestClockDto,
    @OperationId() operationId?: string,
  ): Promise<TestClockResponse> {
    return present(await this.clocks.create(caller, asMerchantId(body.merchantId), new Date(body.frozenTime), operationId));
  }

  @Get(':testClockId')
  @ApiOperation({ summary: 'Get a test clock', description: 'Its time and whether it is advancing.', operationId: 'getTestClock' })
  @ApiOkResponse({ type: TestClockResponse })
  @ApiStandardErrors()
  async get(@CurrentCaller() caller: Caller, @UuidParam('testClockId') testClockId: string): Promise<TestClockResponse> {
    return present(await this.clocks.get(caller, testClockId));
  }

  @Post(':testClockId/advance')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Advance a test clock',
    description:
      'Forward only, at most two years at once: runs, in order, everything of its subscriptions that falls due up to `to` (announcements, ' +
      'invoices, charges, retries, status changes, events) and answers when it has. 400 Payins:TEST_CLOCK_INVALID_ADVANCE; 409 while ' +
      'another advance runs (Payins:TEST_CLOCK_ADVANCING) or once deleted (Payins:TEST_CLOCK_DELETED).',
    operationId: 'advanceTestClock',
  })
  @RequestExample(AdvanceTestClockDto, { to: '2027-02-01T12:00:00Z' })
  @ApiOkResponse({ type: TestClockResponse })
  @ApiConflictResponse({ type: ErrorResponse, description: 'Payins:TEST_CLOCK_ADVANCING or Payins:TEST_CLOCK_DELETED' })
  @ApiStandardErrors()
  async advance(
    @CurrentCaller() caller: Caller,
    @UuidParam('testClockId') testClockId: string,
    @Body() body: AdvanceTestClockDto,
  ): Promise<TestClockResponse> {
    return present(await this.clocks.advance(caller, testClockId, new Date(body.to)));
  }

  @Delete(':testClockId')
  @ApiOperation({
    summary: 'Delete a test clock',
    description: 'Cancels its subscriptions (their open invoices are voided); the clock no longer moves. 409 when already deleted.',
    operationId: 'deleteTestClock',
  })
  @ApiOkResponse({ type: TestClockResponse })
  @ApiConflictResponse({ type: ErrorResponse, description: 'Payins:TEST_CLOCK_DELETED' })
  @ApiStandardErrors()
  async delete(@CurrentCaller() caller: Caller, @UuidParam('testClockId') testClockId: string): Promise<TestClockResponse> {
    return present(await this.clocks.delete(caller, testClockId));
  }
}
