import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateBound, Optional, PageQueryDto } from '@pcs/http';
import { DISPUTE_STATUSES } from '@pcs/kernel';
import type { DisputeStatus } from '@pcs/kernel';
import { IsIn, IsUUID } from 'class-validator';

export class ListDisputesQuery extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'One merchant’s disputes (a merchant credential sees only its own)' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ enum: DISPUTE_STATUSES })
  @Optional()
  @IsIn(DISPUTE_STATUSES)
  status?: DisputeStatus;

  @ApiPropertyOptional({ example: '2026-11-01', description: 'On createdAt, inclusive' })
  @Optional()
  @IsDateBound()
  dateFrom?: string;

  @ApiPropertyOptional({ example: '2026-11-30', description: 'On createdAt, inclusive' })
  @Optional()
  @IsDateBound()
  dateTo?: string;

  @ApiPropertyOptional({
    enum: ['CREATED', 'DUE_DATE'],
    description:
      'CREATED (default): newest first. DUE_DATE: the nearest evidence due date first, disputes without one last (beyond the contract)',
  })
  @Optional()
  @IsIn(['CREATED', 'DUE_DATE'])
  sort?: 'CREATED' | 'DUE_DATE';
}
