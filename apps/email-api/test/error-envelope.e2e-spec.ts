import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsEmail, IsInt, IsOptional, IsString, Max, MaxLength, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import request from 'supertest';
import { Public } from '@shared/auth';
import { ClosedObject } from '@shared/errors';
import { createTestApp, createTestDatabase, listenOnLoopback, TestDatabase } from '@shared/testing';
import { EmailPrisma } from '@email/data-access';
import { AppModule, EMAIL_HTTP_OPTIONS } from '../src/app.module';

class ProbeAddress {
  @IsString() @MaxLength(5) city!: string;
}

// Closed, so an unknown property is refused (an open DTO would drop it; see liberal-requests.e2e-spec.ts).
@ClosedObject()
class ProbeBody {
  @IsEmail() email!: string;
  @IsOptional() @IsInt() @Max(10) count?: number;
  @IsOptional() @ValidateNested() @Type(() => ProbeAddress) address?: ProbeAddress;
}

/** Routes that exercise each error path through the real email-api stack. */
@Public()
@Controller('probe')
class ProbeController {
  constructor(private readonly prisma: EmailPrisma) {}

  @Post('validate')
  validate(@Body() body: ProbeBody) {
    return { ok: true, body };
  }

  @Post('optional')
  optional(@Body() body: unknown) {
    return { body: body ?? null };
  }

  @Post('duplicate')
  async duplicate() {
    await this.prisma.workspace.create({ data: { id: 'wsp_dup', name: 'one' } });
    await this.prisma.workspace.create({ data: { id: 'wsp_dup', name: 'two' } });
  }

  @Get('crash')
  crash() {
    throw new Error('secret internals: SELECT * FROM api_keys');
  }
}

@Module({ imports: [AppModule], controllers: [ProbeController] })
class ProbeAppModule {}

describe('email-api: the error envelope', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    db = await createTestDatabase('email');
    app = await createTestApp(ProbeAppModule, { EMAIL_DATABASE_URL: db.url }, EMAIL_HTTP_OPTIONS);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('400 names the failing field', async () => {
    const res = await http().post('/probe/validate').send({ email: 'not-an-email' }).expect(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request', code: 'validation_failed', details: { field: 'email' } });
  });

  it('400 names a nested field and an unknown property', async () => {
    const nested = await http()
      .post('/probe/validate')
      .send({ email: 'a@b.co', address: { city: 'Amsterdam' } })
      .expect(400);
    expect(nested.body.error.details.field).toBe('address.city');
    const unknown = await http().post('/probe/validate').send({ email: 'a@b.co', admin: true }).expect(400);
    expect(unknown.body.error.details).toMatchObject({ field: 'admin', reason: expect.stringContaining('unknown_property') });
  });

  it('400 for malformed JSON, 415 for a non-JSON body, 413 for an oversized body', async () => {
    const bad = await http().post('/probe/validate').set('content-type', 'application/json').send('{"email":').expect(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_request', code: 'invalid_json' });
    const media = await http().post('/probe/validate').set('content-type', 'text/plain').send('hello').expect(415);
    // Declared JSON with nothing sent is no body: a route that needs one names what is missing.
    const empty = await http().post('/probe/validate').set('content-type', 'application/json').expect(400);
    expect(empty.body.error).toMatchObject({ code: 'validation_failed', details: { field: 'email' } });
    expect((await http().post('/probe/optional').set('content-type', 'application/json; charset=utf-8').expect(201)).body).toEqual({ body: null });
    const noLength = await fetch(`${await listenOnLoopback(app)}/probe/optional`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect({ status: noLength.status, body: await noLength.json() }).toEqual({ status: 201, body: { body: null } });
    expect(media.body.error).toMatchObject({ type: 'invalid_request', code: 'unsupported_media_type' });
    const big = await http()
      .post('/probe/validate')
      .send({ email: 'a@b.co', padding: 'x'.repeat(1024 * 1024 + 10) })
      .expect(413);
    expect(big.body.error.code).toBe('payload_too_large');
  });

  it('409 for a unique violation, without SQL in the message', async () => {
    const res = await http().post('/probe/duplicate').expect(409);
    expect(res.body.error).toMatchObject({ type: 'conflict', code: 'already_exists' });
    expect(JSON.stringify(res.body)).not.toMatch(/INSERT|constraint|prisma/i);
  });

  it('500 is an api_error envelope that leaks nothing', async () => {
    const res = await http().get('/probe/crash').expect(500);
    expect(res.body).toEqual({ error: { type: 'api_error', code: 'internal_error', message: expect.any(String) } });
    expect(JSON.stringify(res.body)).not.toContain('secret internals');
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('404 for a wrong method on a known path', async () => {
    const res = await http().delete('/v1').expect(404);
    expect(res.body.error.type).toBe('not_found');
  });
});
