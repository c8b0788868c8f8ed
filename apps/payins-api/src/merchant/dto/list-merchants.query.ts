import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '@pcs/http';

export class ListMerchantsQuery extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Matches merchant name, fantasy name, email or tax id (case-insensitive)' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  searchTerm?: string;
}
