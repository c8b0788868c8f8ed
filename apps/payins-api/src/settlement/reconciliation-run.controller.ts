import { Get, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ApiStandardErrors, CurrentCaller, Optional, PageQueryDto, payinsEnvelope, SignedController, UuidParamPipe } from '@pcs/http';
import { asMerchantId } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { DISCREPANCY_KINDS, reconciliationRunRepresentation, ReconciliationRunsService } from '@pcs/processor-reports';
import { IsUUID } from 'class-validator';

export class ListReconciliationRunsQuery extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;
}

class DiscrepancySideResponse {
  @ApiProperty({ type: String, nullable: true, description: "The processor's id of the operation" }) externalId: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Gross, signed, major units' }) amount: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "The processor's fee, major units" }) fee: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the money was (or is to be) released' })
  date: string | null;
}

class DiscrepancyResponse {
  @ApiProperty({ enum: DISCREPANCY_KINDS }) kind: string;
  @ApiProperty({ description: "Our reference (the attempt's or refund's transactionId), or the report's when we have none" })
  externalId: string;
  @ApiProperty({ type: DiscrepancySideResponse, nullable: true }) ours: DiscrepancySideResponse | null;
  @ApiProperty({ type: DiscrepancySideResponse, nullable: true }) theirs: DiscrepancySideResponse | null;
}

export class ReconciliationRunResponse {
  @ApiProperty({ format: 'uuid' }) runId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ enum: ['MERCADO_PAGO'] }) provider: string;
  @ApiProperty({ format: 'date', description: "Inclusive, the merchant's country's date" }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ enum: ['RUNNING', 'COMPLETED', 'FAILED'] }) status: string;
  @ApiProperty({ description: 'Report lines matched with our records' }) matched: number;
  @ApiProperty({ description: 'Report lines of other record types, listed and not compared' }) ignored: number;
  @ApiProperty({ type: String, nullable: true }) failureReason: string | null;
  @ApiProperty({ type: [DiscrepancyResponse] }) discrepancies: DiscrepancyResponse[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt: string | null;
}

export class ReconciliationRunPageResponse {
  @ApiProperty({ example: '1' }) currentPage: string;
  @ApiProperty({ example: '20' }) pageSize: string;
  @ApiProperty() rowCount: number;
  @ApiProperty() pageCount: number;
  @ApiProperty({ type: [ReconciliationRunResponse] }) results: ReconciliationRunResponse[];
}

/** Reconciliation with the processors' reports (contract §19). */
@SignedController('reconciliation-run', 'settlement')
@ApiExtraModels(ReconciliationRunPageResponse)
export class ReconciliationRunController {
  constructor(private readonly runs: ReconciliationRunsService) {}

  @Get()
  @ApiOperation({
    summary: 'List reconciliation runs (paged, newest first)',
    description: "Each run of a merchant's processor report against our records, with its discrepancies; in the payins paged envelope.",
    operationId: 'listReconciliationRuns',
  })
  @ApiOkResponse({ schema: { type: 'array', items: { $ref: getSchemaPath(ReconciliationRunPageResponse) } } })
  @ApiStandardErrors()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListReconciliationRunsQuery) {
    const page = await this.runs.list(caller, asMerchantId(query.merchantId), query.toPageRequest());
    return payinsEnvelope(page, reconciliationRunRepresentation);
  }

  @Get(':runId')
  @ApiOperation({
    summary: 'Get a reconciliation run',
    description:
      'Matched lines and discrepancies: AMOUNT_MISMATCH, FEE_MISMATCH, MISSING_HERE (in the report, not here), MISSING_THERE (here, released in the window, not in the report). A discrepancy never moves money.',
    operationId: 'getReconciliationRun',
  })
  @ApiOkResponse({ type: ReconciliationRunResponse })
  @ApiStandardErrors()
  async get(@CurrentCaller() caller: Caller, @Param('runId', UuidParamPipe) runId: string): Promise<ReconciliationRunResponse> {
    return reconciliationRunRepresentation(await this.runs.get(caller, runId));
  }
}
