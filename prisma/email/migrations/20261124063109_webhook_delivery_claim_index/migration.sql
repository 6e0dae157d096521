-- DropIndex
DROP INDEX "webhook_deliveries_subscription_id_idx";

-- CreateIndex
CREATE INDEX "webhook_deliveries_subscription_id_state_next_attempt_at_idx" ON "webhook_deliveries"("subscription_id", "state", "next_attempt_at");
