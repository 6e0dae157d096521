-- Engagement conditions need only (workspace, time, subscriber): with the subscriber in the index they never visit the table.
-- DropIndex
DROP INDEX "subscriber_engagement_workspace_id_last_clicked_at_idx";

-- DropIndex
DROP INDEX "subscriber_engagement_workspace_id_last_opened_at_idx";

-- CreateIndex
CREATE INDEX "subscriber_engagement_workspace_id_last_opened_at_subscribe_idx" ON "subscriber_engagement"("workspace_id", "last_opened_at", "subscriber_id");

-- CreateIndex
CREATE INDEX "subscriber_engagement_workspace_id_last_clicked_at_subscrib_idx" ON "subscriber_engagement"("workspace_id", "last_clicked_at", "subscriber_id");
