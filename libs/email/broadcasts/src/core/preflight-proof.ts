import { createHash } from 'node:crypto';
import { SignedFields } from '@email/delivery';
import { canonicalJson } from '@shared/idempotency';

/** How long a passing preflight's proof lets a send skip the checks: long enough to read the report and decide. */
export const SEND_PROOF_TTL_MS = 10 * 60 * 1000;

/** What a send proof is bound to: the broadcast as it was checked, and the recipient count the check found. */
export interface SendProofClaims {
  workspaceId: string;
  broadcastId: string;
  contentVersion: number;
  /** audienceHash of the audience definition that was counted. */
  audienceHash: string;
  connectionId: string;
  recipients: number;
}

/** The broadcast as it is now, to compare a proof with. */
export type ProofSubject = Pick<SendProofClaims, 'contentVersion' | 'audienceHash' | 'connectionId'>;

/** A short, URL-safe digest of an audience definition (null: the whole workspace), the same whatever its key order. */
export const audienceHash = (definition: unknown): string =>
  createHash('sha256').update(canonicalJson(definition)).digest().subarray(0, 16).toString('base64url');

export type ReadProof =
  { kind: 'invalid' } | { kind: 'stale'; claims: SendProofClaims } | { kind: 'expired'; claims: SendProofClaims } | { kind: 'valid'; claims: SendProofClaims };

/**
 * Signed send proofs: `bp1.<payload>.<mac>` (SignedFields, a key of this purpose derived from CURSOR_SECRET) over the
 * workspace, the broadcast, its content version, audience hash and connection, the recipient count and the expiry.
 */
export class SendProofs {
  private readonly fields: SignedFields;

  constructor(
    secret: string,
    private readonly ttlMs = SEND_PROOF_TTL_MS,
  ) {
    this.fields = new SignedFields(secret, 'bp1', 'broadcast-send-proof v1');
  }

  issue(claims: SendProofClaims, now: Date): { proof: string; expiresAt: Date } {
    const expiresAt = new Date(Math.floor((now.getTime() + this.ttlMs) / 1000) * 1000);
    const proof = this.fields.sign([
      claims.workspaceId,
      claims.broadcastId,
      String(claims.contentVersion),
      claims.audienceHash,
      claims.connectionId,
      String(claims.recipients),
      (expiresAt.getTime() / 1000).toString(36),
    ]);
    return { proof, expiresAt };
  }

  /**
   * What a proof says about this broadcast now: `invalid` when it is not ours or names another workspace or broadcast
   * (a send treats it as no proof); `stale` when the broadcast changed since (checked before expiry: a stale proof is
   * never sent on); `expired`; `valid`.
   */
  read(proof: unknown, workspaceId: string, broadcastId: string, now: ProofSubject, at: Date): ReadProof {
    const fields = this.fields.verify(proof, [7]);
    if (!fields) return { kind: 'invalid' };
    const [workspace, broadcast, version, audience, connectionId, recipients, expires] = fields;
    if (
      workspace !== workspaceId ||
      broadcast !== broadcastId ||
      !/^\d{1,9}$/.test(version) ||
      !/^\d{1,10}$/.test(recipients) ||
      !/^[0-9a-z]{1,10}$/.test(expires)
    ) {
      return { kind: 'invalid' };
    }
    const claims: SendProofClaims = {
      workspaceId,
      broadcastId,
      contentVersion: Number(version),
      audienceHash: audience,
      connectionId,
      recipients: Number(recipients),
    };
    if (claims.contentVersion !== now.contentVersion || claims.audienceHash !== now.audienceHash || claims.connectionId !== now.connectionId) {
      return { kind: 'stale', claims };
    }
    return { kind: parseInt(expires, 36) * 1000 <= at.getTime() ? 'expired' : 'valid', claims };
  }
}
