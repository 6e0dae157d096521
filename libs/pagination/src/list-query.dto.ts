import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** `limit` and `starting_after`, shared by every cursor list (limit is range-checked by parseLimit). */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 25 })
  @IsOptional()
  @IsString()
  limit?: string;

  @ApiPropertyOptional({ description: 'Pass next_cursor from the previous page unchanged.' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  starting_after?: string;
}

export class SearchablePageQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;
}
