import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ClosedObject } from '@shared/errors';
import { MARK_TYPES, NODE_TYPES } from '@email/rendering';

// The structured email document's schema, for the OpenAPI document only: @email/rendering's parseEmailDocument
// validates a document and names the failing path.

const SPACING = ['none', 'normal', 'large'];
const text = { type: String };

@ClosedObject()
export class BroadcastEmailMarkAttrsDto {
  @ApiPropertyOptional(text) href?: string;
  @ApiPropertyOptional(text) color?: string;
  @ApiPropertyOptional(text) fontSize?: string;
}

@ClosedObject()
export class BroadcastEmailMarkDto {
  @ApiProperty({ enum: MARK_TYPES }) type!: string;
  @ApiPropertyOptional({ type: BroadcastEmailMarkAttrsDto }) attrs?: BroadcastEmailMarkAttrsDto;
}

@ClosedObject()
export class BroadcastEmailUnsplashDto {
  @ApiPropertyOptional(text) photoId?: string;
  @ApiProperty(text) photographerName!: string;
  @ApiPropertyOptional(text) photographerUsername?: string;
  @ApiPropertyOptional(text) photographerUrl?: string;
  @ApiPropertyOptional(text) unsplashUrl?: string;
}

@ClosedObject()
export class BroadcastEmailNodeAttrsDto {
  @ApiPropertyOptional(text) id?: string;
  @ApiPropertyOptional({ type: 'integer', enum: [1, 2, 3] }) level?: number;
  @ApiPropertyOptional({ enum: ['left', 'center', 'right', 'justify'] }) textAlign?: string;
  @ApiPropertyOptional({ type: 'integer', enum: [1, 2, 3] }) columns?: number;
  @ApiPropertyOptional({ enum: ['default', 'large', 'full', 'fit'] }) width?: string;
  @ApiPropertyOptional(text) backgroundColor?: string;
  @ApiPropertyOptional(text) blockquoteBorderColor?: string;
  @ApiPropertyOptional(text) linkColor?: string;
  @ApiPropertyOptional({ enum: ['left', 'center'] }) layoutAlignment?: string;
  @ApiPropertyOptional(text) backgroundImageUrl?: string;
  @ApiPropertyOptional({ enum: SPACING }) margin?: string;
  @ApiPropertyOptional({ enum: SPACING }) padding?: string;
  @ApiPropertyOptional(text) borderColor?: string;
  @ApiPropertyOptional({ enum: SPACING }) borderWidth?: string;
  @ApiPropertyOptional({ enum: ['none', 'normal', 'small', 'large', 'full'] }) borderRadius?: string;
  @ApiPropertyOptional({ enum: ['top', 'middle', 'bottom'] }) verticalAlign?: string;
  @ApiPropertyOptional(text) href?: string;
  @ApiPropertyOptional(text) textColor?: string;
  @ApiPropertyOptional({ enum: ['small', 'medium', 'large'] }) size?: string;
  @ApiPropertyOptional({ enum: ['left', 'center', 'right'] }) align?: string;
  @ApiPropertyOptional(text) label?: string;
  @ApiPropertyOptional(text) src?: string;
  @ApiPropertyOptional(text) alt?: string;
  @ApiPropertyOptional(text) title?: string;
  @ApiPropertyOptional(text) caption?: string;
  @ApiPropertyOptional({ enum: ['unsplash'] }) source?: string;
  @ApiPropertyOptional({ type: BroadcastEmailUnsplashDto }) unsplash?: BroadcastEmailUnsplashDto;
  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 100 }) widthPercent?: number;
  @ApiPropertyOptional({ enum: ['none', 'square', 'circle'] }) crop?: string;
  @ApiPropertyOptional({ type: Boolean }) fillColumn?: boolean;
}

/** One node of a `BroadcastEmailDocument`; the document is the `doc` node at the root. */
@ClosedObject()
export class BroadcastEmailNodeDto {
  @ApiProperty({ enum: NODE_TYPES }) type!: string;
  @ApiPropertyOptional({ type: BroadcastEmailNodeAttrsDto }) attrs?: BroadcastEmailNodeAttrsDto;
  @ApiPropertyOptional({ type: () => [BroadcastEmailNodeDto] }) content?: BroadcastEmailNodeDto[];
  @ApiPropertyOptional(text) text?: string;
  @ApiPropertyOptional({ type: [BroadcastEmailMarkDto] }) marks?: BroadcastEmailMarkDto[];
}
