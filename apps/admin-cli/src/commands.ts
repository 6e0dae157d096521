import { INestApplicationContext } from '@nestjs/common';
import { parseArgs } from 'node:util';
import { AccessService } from '@email/access';
import { UsersService } from '@email/oauth';
import { ConnectionKeyRotation } from '@email/delivery';
import { WorkspaceService } from '@email/workspace';
import { SigningSecretKeyRotation } from '@email/webhooks';
import { AccountsService } from '@forms/accounts';
import { OwnerSignIn } from '@forms/oauth';
import { trustedWorkspaceId } from '@shared/core';
import { defineErrorCodes, errorFactory, SHARED_ERROR_CODES } from '@shared/errors';

/** What the command line itself can refuse, beyond the codes the services answer. */
const CliErrors = errorFactory(
  defineErrorCodes({
    validation_failed: SHARED_ERROR_CODES.validation_failed,
    invalid_option: { type: 'invalid_request', description: 'An option the command does not know, or one given without its value.' },
    missing_option: { type: 'invalid_request', description: 'A required option is missing.' },
  }),
);

type Command = (app: INestApplicationContext, args: string[]) => Promise<unknown>;

/** Standard input up to its end, without the final line break: passwords never appear on the command line (`ps`). */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.replace(/\r?\n$/, '');
}

function options(args: string[], spec: Record<string, { required?: boolean }>): Record<string, string | undefined> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args, options: Object.fromEntries(Object.keys(spec).map((name) => [name, { type: 'string' as const }])), strict: true }));
  } catch (error) {
    throw CliErrors.invalid('invalid_option', (error as Error).message);
  }
  for (const [name, rule] of Object.entries(spec)) {
    if (rule.required && !values[name]) throw CliErrors.invalid('missing_option', `--${name} is required.`, name);
  }
  return values as Record<string, string | undefined>;
}

const scopesOf = (raw: string) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function dateOf(raw: string | undefined): Date | null {
  if (!raw) return null;
  const date = new Date(raw);
  if (Number.isNaN(date.getTime())) throw CliErrors.invalid('validation_failed', '--expires-at must be an ISO 8601 date-time.', 'expires-at');
  return date;
}

/** Every admin command: name → handler returning the JSON to print. */
export const COMMANDS: Record<string, Command> = {
  'create-workspace': async (app, args) => {
    const { name } = options(args, { name: { required: true } });
    const created = await app.get(AccessService).createWorkspace(name!);
    return { workspace_id: created.workspace_id, api_key: created.api_key };
  },
  /** The workspace's name and the postal address every marketing email's footer shows ("" clears a field). */
  'update-workspace': async (app, args) => {
    const o = options(args, { workspace: { required: true }, name: {}, address: {}, city: {}, state: {}, 'postal-code': {}, country: {}, 'time-zone': {} });
    // An operator names the workspace on the command line: there is no credential to take it from.
    return app.get(WorkspaceService).updateProfile(trustedWorkspaceId(o.workspace!), {
      name: o.name,
      address: o.address,
      city: o.city,
      state: o.state,
      postal_code: o['postal-code'],
      country: o.country,
      time_zone: o['time-zone'],
    });
  },
  /** A person who signs in to approve agent apps, as a member of the listed workspaces; the password comes on standard input. */
  'create-user': async (app, args) => {
    const o = options(args, { email: { required: true }, workspace: { required: true }, name: {} });
    return app.get(UsersService).createUser({ email: o.email!, name: o.name ?? '', password: await readStdin(), workspaceIds: scopesOf(o.workspace!) });
  },
  'create-api-key': async (app, args) => {
    const o = options(args, { workspace: { required: true }, scopes: { required: true }, name: {}, 'expires-at': {} });
    const key = await app.get(AccessService).createApiKey(o.workspace!, { scopes: scopesOf(o.scopes!), name: o.name, expiresAt: dateOf(o['expires-at']) });
    return { api_key: key.api_key, id: key.id };
  },
  'revoke-api-key': async (app, args) => {
    const { id } = options(args, { id: { required: true } });
    await app.get(AccessService).revokeApiKey(id!);
    return { id, revoked: true };
  },
  /** After ENCRYPTION_KEY changed (the old one listed in ENCRYPTION_KEYS_RETIRED): seals every stored secret under the new key. */
  'rewrap-secrets': async (app, args) => {
    options(args, {});
    // Connection secrets, then webhook signing secrets: one report, the unreadable ids' prefixes tell which.
    const connections = await app.get(ConnectionKeyRotation).rewrapAll();
    const webhooks = await app.get(SigningSecretKeyRotation).rewrapAll();
    return {
      examined: connections.examined + webhooks.examined,
      rewrapped: connections.rewrapped + webhooks.rewrapped,
      unreadable: [...connections.unreadable, ...webhooks.unreadable],
    };
  },
  'forms:create-account': async (app, args) => {
    const o = options(args, { email: { required: true }, 'workspace-name': {} });
    return app.get(AccountsService).createAccount({ email: o.email!, workspaceName: o['workspace-name'] });
  },
  /** The password an owner signs in to the forms browser pages with (consent, connected apps, exports); read from standard input. */
  'forms:set-password': async (app, args) => {
    const o = options(args, { email: { required: true } });
    return app.get(OwnerSignIn).setPassword(o.email!, await readStdin());
  },
  'forms:create-api-key': async (app, args) => {
    const o = options(args, { owner: { required: true }, scopes: { required: true }, name: {}, 'expires-at': {} });
    const key = await app.get(AccountsService).createApiKey(o.owner!, { scopes: scopesOf(o.scopes!), name: o.name, expiresAt: dateOf(o['expires-at']) });
    return { api_key: key.api_key, id: key.id };
  },
  'forms:create-workspace': async (app, args) => {
    const o = options(args, { owner: { required: true }, name: { required: true }, plan: {} });
    const plan = o.plan as 'free' | 'pro' | 'business' | undefined;
    if (plan && !['free', 'pro', 'business'].includes(plan)) throw CliErrors.invalid('validation_failed', '--plan must be free, pro or business.', 'plan');
    return app.get(AccountsService).createWorkspace(o.owner!, { name: o.name!, plan });
  },
  'forms:set-member': async (app, args) => {
    const o = options(args, { workspace: { required: true }, owner: { required: true }, role: { required: true } });
    await app.get(AccountsService).setMembership(o.workspace!, o.owner!, o.role as 'owner' | 'editor' | 'viewer');
    return { workspace_id: o.workspace, owner_id: o.owner, role: o.role };
  },
  'forms:revoke-api-key': async (app, args) => {
    const { id } = options(args, { id: { required: true } });
    await app.get(AccountsService).revokeApiKey(id!);
    return { id, revoked: true };
  },
};
