import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { Optional, PageQueryDto } from '@pcs/http';

export class ListMerchantsQuery extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Matches merchant name, fantasy name, email or tax id (case-insensitive)' })
  @Optional()
  @IsString()
  @MaxLength(128)
  searchTerm?: string;
}
