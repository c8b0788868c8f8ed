import { Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ApiStandardErrors, CurrentCaller, Optional, PageQueryDto, payinsEnvelope, SignedController, UuidParam } from '@pcs/http';
import { asMerchantId } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { RECONCILED_PROCESSORS } from '@pcs/processors';
import { DISCREPANCY_KINDS, reconciliationRunRepresentation, ReconciliationRunsService } from '@pcs/processor-reports';
import { IsUUID } from 'class-validator';

export class ListReconciliationRunsQuery extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;
}

class DiscrepancySideResponse {
  @ApiProperty({ type: String, nullable: true, description: "The processor's id of the operation (ours: a dispute's id for a dispute)" })
  externalId: string | null;
  @ApiProperty({
    type: Number,
    format: 'decimal',
    nullable: true,
    description: 'Gross, signed, major units (a payment positive; a refund or a hold negative)',
  })
  amount: number | null;
  @ApiProperty({ type: Number, format: 'decimal', nullable: true, description: 'The same gross (GROSS_AMOUNT), as contract §23 names it' })
  gross: number | null;
  @ApiProperty({
    type: Number,
    format: 'decimal',
    nullable: true,
    description: "The processor's fee, financing apart (MP_FEE_AMOUNT), major units",
  })
  fee: number | null;
  @ApiProperty({ type: Number, format: 'decimal', nullable: true, description: 'Its financing fee (FINANCING_FEE_AMOUNT)' }) financingFee:
    number | null;
  @ApiProperty({
    type: Number,
    format: 'decimal',
    nullable: true,
    description: 'Taxes it withheld (TAXES_AMOUNT: Argentina’s withholdings)',
  })
  taxes: number | null;
  @ApiProperty({
    type: Number,
    format: 'decimal',
    nullable: true,
    description: 'What the line credited to the account (NET_CREDIT_AMOUNT)',
  })
  netCredit: number | null;
  @ApiProperty({
    type: Number,
    format: 'decimal',
    nullable: true,
    description: 'What the line debited from the account (NET_DEBIT_AMOUNT)',
  })
  netDebit: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the money was (or is to be) released' })
  date: string | null;
}

class ReportTotalsResponse {
  @ApiProperty({ type: String, nullable: true, description: 'The report’s currency (the account’s local one when the report names none)' })
  currency: string | null;
  @ApiProperty({ description: 'Gross of every line of the window, major units', format: 'decimal' }) gross: number;
  @ApiProperty({ format: 'decimal' }) fee: number;
  @ApiProperty({ format: 'decimal' }) financingFee: number;
  @ApiProperty({ format: 'decimal' }) taxes: number;
  @ApiProperty({ format: 'decimal' }) netCredit: number;
  @ApiProperty({ format: 'decimal' }) netDebit: number;
}

class DiscrepancyResponse {
  @ApiProperty({ enum: DISCREPANCY_KINDS }) kind: string;
  @ApiProperty({
    description: "Our reference (the attempt's or refund's transactionId, or a dispute's id), or the processor's when we have none",
  })
  externalId: string;
  @ApiProperty({ type: DiscrepancySideResponse, nullable: true }) ours: DiscrepancySideResponse | null;
  @ApiProperty({ type: DiscrepancySideResponse, nullable: true }) theirs: DiscrepancySideResponse | null;
}

export class ReconciliationRunResponse {
  @ApiProperty({ format: 'uuid' }) runId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({
    enum: RECONCILED_PROCESSORS.map(({ provider }) => provider),
    description: RECONCILED_PROCESSORS.map(({ provider, reads }) => `${provider}: ${reads}`).join(' '),
  })
  provider: string;
  @ApiProperty({ format: 'date', description: "Inclusive, the merchant's country's date" }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ enum: ['RUNNING', 'COMPLETED', 'FAILED'] }) status: string;
  @ApiProperty({
    description: 'Report lines matched with our records (DLOCAL: payments looked up)',
    type: 'integer',
  })
  matched: number;
  @ApiProperty({ description: 'Report lines of other record types, listed and not compared', type: 'integer' }) ignored: number;
  @ApiProperty({ type: String, nullable: true }) failureReason: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'A later run of a window containing this one’s: it replaced this run’s discrepancies',
  })
  supersededBy: string | null;
  @ApiProperty({
    type: ReportTotalsResponse,
    nullable: true,
    description: 'The window’s totals of each money column (null until completed, and for a DLOCAL run, which reads no report)',
  })
  totals: ReportTotalsResponse | null;
  @ApiProperty({ type: [DiscrepancyResponse] }) discrepancies: DiscrepancyResponse[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt: string | null;
}

export class ReconciliationRunPageResponse {
  @ApiProperty({ example: '1' }) currentPage: string;
  @ApiProperty({ example: '20' }) pageSize: string;
  @ApiProperty({ type: 'integer' }) rowCount: number;
  @ApiProperty({ type: 'integer' }) pageCount: number;
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
  async get(@CurrentCaller() caller: Caller, @UuidParam('runId') runId: string): Promise<ReconciliationRunResponse> {
    return reconciliationRunRepresentation(await this.runs.get(caller, runId));
  }
}
