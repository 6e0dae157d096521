import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUrl, Matches, MaxLength, ValidateBy, ValidateIf } from 'class-validator';
import { ClosedObject, NotBlank } from '@shared/errors';
import { CONTRACT_OFFSET_DATE_TIME, isOffsetDateTime } from './dates';

const IsOffsetDateTime = () =>
  ValidateBy({
    name: 'isOffsetDateTime',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isOffsetDateTime(value),
      defaultMessage: () => 'must be an ISO 8601 date-time with an explicit UTC offset (Z or ±hh:mm)',
    },
  });

/** Evidence of consent sent with a subscriber write. No other properties are accepted. */
@ClosedObject()
export class ConsentEvidenceDto {
  @ApiProperty({ maxLength: 64 })
  @IsString()
  @NotBlank()
  @MaxLength(64)
  lawful_basis!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  consent_text_version?: string | null;

  // Documented with the contract's pattern; the check itself also takes a time without seconds (10:00Z).
  @ApiProperty({ description: 'ISO 8601 date-time with an explicit UTC offset; not later than server time.', pattern: CONTRACT_OFFSET_DATE_TIME.source })
  @IsString()
  @IsOffsetDateTime()
  collected_at!: string;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri', maxLength: 2048 })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(2048)
  @IsUrl({ require_protocol: true, require_tld: false })
  source_url?: string | null;

  @ApiProperty({ maxLength: 512 })
  @IsString()
  @NotBlank()
  @MaxLength(512)
  evidence_reference!: string;

  @ApiPropertyOptional({ type: String, nullable: true, pattern: '^[a-f0-9]{64}$' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @Matches(/^[a-f0-9]{64}$/, { message: 'must be 64 lowercase hexadecimal characters (a SHA-256 digest)' })
  technical_evidence_hash?: string | null;
}
