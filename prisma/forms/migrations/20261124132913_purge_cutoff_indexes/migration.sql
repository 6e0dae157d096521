-- The hourly OAuth purge (purgeOAuthBatchOfAllWorkspaces) and the payment webhook events prune
-- (deleteWebhookEventsOfAllWorkspaces) delete by these cut-offs; without them each run scanned the whole tables.
CREATE INDEX "oauth_authorization_codes_expires_at_idx" ON "oauth_authorization_codes"("expires_at");

CREATE INDEX "oauth_tokens_expires_at_idx" ON "oauth_tokens"("expires_at");

CREATE INDEX "oauth_tokens_revoked_at_idx" ON "oauth_tokens"("revoked_at");

CREATE INDEX "browser_sessions_expires_at_idx" ON "browser_sessions"("expires_at");

CREATE INDEX "payment_webhook_events_received_at_idx" ON "payment_webhook_events"("received_at");
