-- CreateEnum
CREATE TYPE "BroadcastStatus" AS ENUM ('draft', 'scheduled', 'running', 'completed', 'failed');

-- CreateTable
CREATE TABLE "broadcasts" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "preview_text" TEXT,
    "body_document" JSONB NOT NULL,
    "body" TEXT NOT NULL,
    "status" "BroadcastStatus" NOT NULL DEFAULT 'draft',
    "scheduled_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "connection_id" TEXT,
    "reply_to_email" TEXT,
    "audience_definition" JSONB,
    "track_opens" BOOLEAN NOT NULL DEFAULT true,
    "track_clicks" BOOLEAN NOT NULL DEFAULT true,
    "utm_source" TEXT,
    "utm_medium" TEXT,
    "utm_campaign" TEXT,
    "utm_term" TEXT,
    "utm_content" TEXT,
    "content_version" INTEGER NOT NULL DEFAULT 1,
    "recipient_count" INTEGER NOT NULL DEFAULT 0,
    "opened_count" INTEGER NOT NULL DEFAULT 0,
    "clicked_count" INTEGER NOT NULL DEFAULT 0,
    "unsubscribed_count" INTEGER NOT NULL DEFAULT 0,
    "bounced_count" INTEGER NOT NULL DEFAULT 0,
    "complained_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "broadcasts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "broadcast_runs" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "broadcast_id" TEXT NOT NULL,
    "phase" TEXT NOT NULL DEFAULT 'preparing',
    "content_version" INTEGER NOT NULL,
    "connection_id" TEXT NOT NULL,
    "selected" INTEGER NOT NULL DEFAULT 0,
    "materialized" INTEGER NOT NULL DEFAULT 0,
    "prepared_through" TEXT,
    "accepted" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "retrying" INTEGER NOT NULL DEFAULT 0,
    "permanent_failed" INTEGER NOT NULL DEFAULT 0,
    "unknown" INTEGER NOT NULL DEFAULT 0,
    "canceled" INTEGER NOT NULL DEFAULT 0,
    "pause_reason" TEXT,
    "pause_message" TEXT,
    "next_retry_at" TIMESTAMPTZ(3),
    "next_retry_action" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sending_started_at" TIMESTAMPTZ(3),
    "last_progress_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "broadcast_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "broadcast_deliveries" (
    "id" BIGSERIAL NOT NULL,
    "run_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "subscriber_id" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "error_code" TEXT,
    "error_message" TEXT,
    "provider_message_id" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "broadcast_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "broadcasts_workspace_id_created_at_id_idx" ON "broadcasts"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "broadcasts_status_scheduled_at_idx" ON "broadcasts"("status", "scheduled_at");

-- CreateIndex
CREATE INDEX "broadcast_runs_broadcast_id_created_at_idx" ON "broadcast_runs"("broadcast_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "broadcast_runs_phase_idx" ON "broadcast_runs"("phase");

-- CreateIndex
CREATE INDEX "broadcast_deliveries_run_id_state_id_idx" ON "broadcast_deliveries"("run_id", "state", "id");

-- CreateIndex
CREATE UNIQUE INDEX "broadcast_deliveries_run_id_subscriber_id_key" ON "broadcast_deliveries"("run_id", "subscriber_id");

-- AddForeignKey
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "broadcast_runs" ADD CONSTRAINT "broadcast_runs_broadcast_id_fkey" FOREIGN KEY ("broadcast_id") REFERENCES "broadcasts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "broadcast_deliveries" ADD CONSTRAINT "broadcast_deliveries_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "broadcast_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
