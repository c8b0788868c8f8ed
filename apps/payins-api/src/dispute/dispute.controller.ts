import { Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiUnprocessableEntityResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { DisputesService, DisputeView, disputeRepresentation } from '@pcs/disputes';
import {
  ApiStandardErrors,
  CurrentCaller,
  dateRange,
  ErrorResponse,
  Idempotent,
  OperationId,
  payinsEnvelope,
  RawBodyRequest,
  SignedController,
  UuidParam,
  SignatureVersionRequired,
} from '@pcs/http';
import { asMerchantId } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import type { Request } from 'express';
import { ListDisputesQuery } from './dispute.dto';
import { DisputePageResponse, DisputeResponse } from './dispute.responses';

const present = (view: DisputeView): DisputeResponse => disputeRepresentation(view.dispute, view.evidence);

/** Disputes and chargebacks (contract §21): what the payer's bank took back, and the merchant's answer. */
@SignedController('', 'disputes', 'money:write')
@ApiExtraModels(DisputePageResponse)
export class DisputeController {
  constructor(private readonly disputes: DisputesService) {}

  @Get('dispute')
  @ApiOperation({
    summary: 'List disputes (paged)',
    description: 'In the payins paged envelope; newest first, or the nearest evidence due date first with `sort=DUE_DATE`.',
    operationId: 'listDisputes',
  })
  @ApiOkResponse({ schema: { type: 'array', items: { $ref: getSchemaPath(DisputePageResponse) } } })
  @ApiStandardErrors()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListDisputesQuery) {
    const { dateFrom, dateUntil } = dateRange(query.dateFrom, query.dateTo, ['dateFrom', 'dateTo']);
    const filters = { merchantId: asMerchantId(query.merchantId), status: query.status, dateFrom, dateUntil, sort: query.sort };
    return payinsEnvelope(await this.disputes.list(caller, filters, query.toPageRequest()), present);
  }

  @Get('dispute/:disputeId')
  @ApiOperation({ summary: 'Get a dispute', description: 'Its status, amount, due date and evidence.', operationId: 'getDispute' })
  @ApiOkResponse({ type: DisputeResponse })
  @ApiStandardErrors()
  async get(@CurrentCaller() caller: Caller, @UuidParam('disputeId') disputeId: string): Promise<DisputeResponse> {
    return present(await this.disputes.get(caller, disputeId));
  }

  @Post('dispute/:disputeId/evidence')
  @SignatureVersionRequired(3)
  @HttpCode(200)
  @Idempotent()
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    description:
      'One or more files in the field `file`: PDF, PNG or JPEG, checked by their content (the part’s type and the name’s extension must ' +
      'say the same). At most 5 files and 10 MB in all per dispute. The signature covers the body’s bytes as sent.',
    schema: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'array', items: { type: 'string', format: 'binary' } } },
    },
  })
  @ApiOperation({
    summary: 'Add evidence to a dispute',
    description:
      'Kept by the service until the dispute is submitted. 400 Payins:INVALID_EVIDENCE for another type, a lying type or extension, a ' +
      'truncated body, too many files or too many bytes (nothing is kept); 413 past the server’s upload limit; 409 after evidenceDueBy ' +
      '(Payins:DISPUTE_EVIDENCE_OVERDUE) or once the dispute is submitted or closed (Payins:DISPUTE_INVALID_STATE).',
    operationId: 'addDisputeEvidence',
  })
  @ApiOkResponse({ type: DisputeResponse })
  @ApiConflictResponse({
    type: ErrorResponse,
    description: 'Payins:DISPUTE_INVALID_STATE, Payins:DISPUTE_EVIDENCE_OVERDUE, or Payins:IDEMPOTENCY_REQUEST_IN_PROGRESS',
  })
  @ApiUnprocessableEntityResponse({ type: ErrorResponse, description: 'Payins:IDEMPOTENCY_KEY_REUSED: the key came with other files' })
  @ApiStandardErrors()
  async evidence(
    @CurrentCaller() caller: Caller,
    @UuidParam('disputeId') disputeId: string,
    @Req() request: Request & RawBodyRequest,
    @OperationId() operationId?: string,
  ): Promise<DisputeResponse> {
    const body = request.rawBody ?? Buffer.alloc(0);
    return present(await this.disputes.addEvidence(caller, disputeId, request.headers['content-type'], body, operationId));
  }

  @Post('dispute/:disputeId/submit')
  @SignatureVersionRequired(3)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Submit the evidence to the processor',
    description:
      'Mercado Pago: its chargeback documentation upload; the sandbox: decided a few seconds later (WON when a file name contains `win`). ' +
      'UNDER_REVIEW once the processor took it. 409 without evidence (Payins:DISPUTE_NO_EVIDENCE), after the due date, when not ' +
      'NEEDS_RESPONSE, while another submission runs, or for dLocal, which takes evidence in its own dashboard ' +
      '(Payins:DISPUTE_EVIDENCE_AT_PROCESSOR); 422 when the processor refuses the files; 503 when it does not answer (nothing changed).',
    operationId: 'submitDispute',
  })
  @ApiOkResponse({ type: DisputeResponse })
  @ApiConflictResponse({
    type: ErrorResponse,
    description:
      'Payins:DISPUTE_INVALID_STATE, Payins:DISPUTE_EVIDENCE_OVERDUE, Payins:DISPUTE_NO_EVIDENCE, Payins:DISPUTE_SUBMISSION_IN_PROGRESS ' +
      'or Payins:DISPUTE_EVIDENCE_AT_PROCESSOR',
  })
  @ApiUnprocessableEntityResponse({ type: ErrorResponse, description: 'Payins:DISPUTE_EVIDENCE_REFUSED' })
  @ApiStandardErrors()
  async submit(@CurrentCaller() caller: Caller, @UuidParam('disputeId') disputeId: string): Promise<DisputeResponse> {
    return present(await this.disputes.submit(caller, disputeId));
  }

  @Post('dispute/:disputeId/accept')
  @SignatureVersionRequired(3)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept the dispute (give up)',
    description:
      'ACCEPTED: the amount stays debited and is no longer refundable. A later decision of the processor still wins (its status and money ' +
      'follow it). 409 once closed.',
    operationId: 'acceptDispute',
  })
  @ApiOkResponse({ type: DisputeResponse })
  @ApiConflictResponse({ type: ErrorResponse, description: 'Payins:DISPUTE_INVALID_STATE or Payins:DISPUTE_SUBMISSION_IN_PROGRESS' })
  @ApiStandardErrors()
  async accept(@CurrentCaller() caller: Caller, @UuidParam('disputeId') disputeId: string): Promise<DisputeResponse> {
    return present(await this.disputes.accept(caller, disputeId));
  }
}
