import { ApiHideProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Expose, Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';

const MAX_CURSOR_LENGTH = 1024;

/** `cursor` may repeat `starting_after` (some clients send both), but never name another position. */
const MatchesStartingAfter = () =>
  ValidateBy({
    name: 'matchesStartingAfter',
    validator: {
      validate: (value: unknown, args) => (args?.object as PageQueryDto).starting_after === value,
      defaultMessage: () => '"cursor" and "starting_after" hold different cursors; send one of them, or the same cursor in both',
    },
  });

/** `limit` and `starting_after`, shared by every cursor list (limit is range-checked by parseLimit). */
export class PageQueryDto {
  // Documented as the integer it is; read as the query string it arrives as, so parseLimit names it in its 400.
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: 'Rows per page; 25 when absent.' })
  @IsOptional()
  @IsString()
  limit?: string;

  @ApiPropertyOptional({ description: 'Pass next_cursor from the previous page unchanged.' })
  // Exposed so the alias is read even when starting_after itself is absent.
  @Expose()
  @Transform(({ value, obj }: { value: unknown; obj: { cursor?: unknown } }) => value ?? obj.cursor)
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CURSOR_LENGTH)
  starting_after?: string;

  /** An alias of starting_after that clients' "fetch every page" modes send beside it; accepted, not documented. */
  @ApiHideProperty()
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CURSOR_LENGTH)
  @MatchesStartingAfter()
  cursor?: string;
}

export class SearchablePageQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;
}
