import { ApiProperty } from '@nestjs/swagger';

/** One installment plan, the same for every processor (contract §25). */
export class InstallmentPlanResponse {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 24, example: 6 }) installments: number;
  @ApiProperty({ type: 'number', format: 'decimal', example: 20000, description: 'Each installment the payer pays' })
  installmentAmount: number;
  @ApiProperty({ type: 'number', format: 'decimal', example: 120000, description: 'What the payer pays in all' })
  totalAmount: number;
  @ApiProperty({ description: 'The payer pays nothing beyond the amount' }) interestFree: boolean;
  @ApiProperty({
    type: 'number',
    format: 'decimal',
    example: 0,
    description: 'The payer’s interest over the plan, percent of the amount (12.5: 12.5 % more)',
  })
  payerRate: number;
  @ApiProperty({
    type: 'number',
    format: 'decimal',
    nullable: true,
    example: 9000,
    description:
      'The financing fee the merchant pays for an interest-free plan where the processor quotes it; null until the payment reports it',
  })
  merchantFinancingFee: number | null;
}
