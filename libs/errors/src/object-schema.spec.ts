import { Body, Controller, Post } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ApiProperty, SwaggerModule } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { ClosedObject, isClosedObject } from './object-schema';

class OpenBody {
  @ApiProperty() name!: string;
}

@ClosedObject({ minProperties: 1 })
class ClosedBody {
  @ApiProperty() name!: string;
}

/** A subclass is open unless it says otherwise, in the document and in the pipe alike. */
class OpenChild extends ClosedBody {}

@Controller('things')
class ThingsController {
  @Post('open') open(@Body() body: OpenBody) {
    return body;
  }
  @Post('closed') closed(@Body() body: ClosedBody) {
    return body;
  }
  @Post('child') child(@Body() body: OpenChild) {
    return body;
  }
}

describe('ClosedObject', () => {
  it('marks the class itself closed for the validation pipe, not its subclasses', () => {
    expect([isClosedObject(ClosedBody), isClosedObject(OpenBody), isClosedObject(OpenChild), isClosedObject(undefined)]).toEqual([true, false, false, false]);
  });

  it('documents exactly the closed classes with additionalProperties false, and minProperties', async () => {
    const moduleRef = await Test.createTestingModule({ controllers: [ThingsController] }).compile({ preview: true });
    const document = SwaggerModule.createDocument(moduleRef.createNestApplication(new FastifyAdapter(), { logger: false, preview: true }), {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
    });
    const schemas = document.components!.schemas!;
    expect(schemas.ClosedBody).toMatchObject({ additionalProperties: false, minProperties: 1, required: ['name'] });
    expect(schemas.OpenBody).not.toHaveProperty('additionalProperties');
    expect(schemas.OpenChild).not.toHaveProperty('additionalProperties');
  });
});
