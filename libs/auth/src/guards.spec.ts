import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy as HttpBearerStrategy } from 'passport-http-bearer';
import { DomainError } from '@shared/errors';
import { Public, RequireScopes } from './decorators';
import { BearerAuthGuard, ScopeGuard } from './guards';
import { CredentialVerifier, Principal } from './principal';

class Routes {
  @Public()
  open() {}

  @RequireScopes('subscribers:read', 'tags:read')
  readBoth() {}

  @RequireScopes()
  noScopes() {}

  plain() {}
}

@RequireScopes('subscribers:write')
class WriteRoutes {
  inherited() {}
}

@Public()
class PublicRoutes {
  anything() {}
}

function contextFor(controller: new () => object, handler: string, request: object): ExecutionContext {
  return {
    getHandler: () => (controller.prototype as Record<string, () => void>)[handler],
    getClass: () => controller,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => ({}), getNext: () => undefined }),
  } as unknown as ExecutionContext;
}

function thrownBy(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('expected an error');
}

const principal = (scopes: string[]): Principal => ({
  credentialType: 'workspace_api_key',
  credentialId: 'key_1',
  subjectId: 'wsp_1',
  scopes,
  expiresAt: null,
  credential: {},
});

describe('BearerAuthGuard', () => {
  const guard = new BearerAuthGuard(new Reflector());

  it('lets @Public() routes and @Public() controllers through without any header', () => {
    expect(guard.canActivate(contextFor(Routes, 'open', { headers: {} }))).toBe(true);
    expect(guard.canActivate(contextFor(PublicRoutes, 'anything', { headers: {} }))).toBe(true);
  });

  it('answers a missing Authorization header with 401 missing_credential', () => {
    const error = thrownBy(() => guard.canActivate(contextFor(Routes, 'plain', { headers: {} })));
    expect(error).toBeInstanceOf(DomainError);
    expect(error.status).toBe(401);
    expect(error.code).toBe('missing_credential');
    expect(error.message).toBe('Send your credential as "Authorization: Bearer <key>".');
  });

  it('answers a header that is not "Bearer <credential>" with 401 invalid_credential', () => {
    for (const authorization of ['Basic abc', 'Bearer', 'Bearer ', 'Bearer a b', 'xBearer abc', 'Bearer abc ', 'abc']) {
      const error = thrownBy(() => guard.canActivate(contextFor(Routes, 'plain', { headers: { authorization } })));
      expect({ authorization, status: error.status, code: error.code }).toEqual({ authorization, status: 401, code: 'invalid_credential' });
      expect(error.message).toBe('The Authorization header must be "Bearer <key>".');
    }
  });

  it('hands a well-formed header (any case) to the bearer strategy and keeps its principal as request.user', async () => {
    const verified = principal(['tags:read']);
    const tokens: string[] = [];
    // Registers itself with passport as 'bearer', standing in for the service's strategy.
    new (class extends PassportStrategy(HttpBearerStrategy, 'bearer') {
      validate(token: string) {
        tokens.push(token);
        return verified;
      }
    })();
    for (const authorization of ['Bearer mrk_abc', 'bearer mrk_abc', 'BEARER mrk_abc']) {
      const request: { headers: object; user?: Principal } = { headers: { authorization } };
      await expect(guard.canActivate(contextFor(Routes, 'plain', request))).resolves.toBe(true);
      expect(request.user).toBe(verified);
    }
    expect(tokens).toEqual(['mrk_abc', 'mrk_abc', 'mrk_abc']);
  });

  describe('handleRequest', () => {
    it('rethrows the strategy error as it is', () => {
      const failure = new DomainError('authentication_error', 'credential_revoked', 'revoked');
      expect(thrownBy(() => guard.handleRequest(failure, undefined))).toBe(failure);
      expect(thrownBy(() => guard.handleRequest(failure, principal([])))).toBe(failure);
    });

    it('refuses an empty principal with 401 invalid_credential', () => {
      for (const empty of [undefined, null, false]) {
        const error = thrownBy(() => guard.handleRequest(null, empty));
        expect([error.status, error.code, error.message]).toEqual([401, 'invalid_credential', 'The credential is not valid.']);
      }
    });

    it('returns the verified principal', () => {
      const verified = principal(['tags:read']);
      expect(guard.handleRequest(null, verified)).toBe(verified);
    });
  });
});

describe('ScopeGuard', () => {
  const refusal = new DomainError('permission_error', 'insufficient_scope', 'lacks scopes');
  const calls: unknown[][] = [];
  const verifier: CredentialVerifier = {
    authService: 'email',
    verify: () => Promise.reject(new Error('not used')),
    insufficientScope: (...args) => {
      calls.push(args);
      return refusal;
    },
  };
  const guard = new ScopeGuard(new Reflector(), verifier);

  beforeEach(() => {
    calls.length = 0;
  });

  it('allows routes that declare no scopes, or an empty list', () => {
    expect(guard.canActivate(contextFor(Routes, 'plain', { user: principal([]) }))).toBe(true);
    expect(guard.canActivate(contextFor(Routes, 'noScopes', { user: principal([]) }))).toBe(true);
    expect(calls).toEqual([]);
  });

  it('allows a principal holding every required scope', () => {
    expect(guard.canActivate(contextFor(Routes, 'readBoth', { user: principal(['tags:read', 'subscribers:read', 'x:write']) }))).toBe(true);
    expect(calls).toEqual([]);
  });

  it('refuses with the verifier error, naming the required and the missing scopes', () => {
    const user = principal(['tags:read']);
    expect(thrownBy(() => guard.canActivate(contextFor(Routes, 'readBoth', { user })))).toBe(refusal);
    expect(calls).toEqual([[user, ['subscribers:read', 'tags:read'], ['subscribers:read']]]);
  });

  it('reads the scopes a controller declares for all its routes', () => {
    const user = principal([]);
    expect(thrownBy(() => guard.canActivate(contextFor(WriteRoutes, 'inherited', { user })))).toBe(refusal);
    expect(calls).toEqual([[user, ['subscribers:write'], ['subscribers:write']]]);
  });

  it('has nothing to check on a route without a principal (public routes)', () => {
    expect(guard.canActivate(contextFor(Routes, 'readBoth', {}))).toBe(true);
    expect(calls).toEqual([]);
  });
});
