-- CreateTable
CREATE TABLE "subscriber_export_jobs" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'Queued',
    "query" TEXT,
    "status_filter" TEXT,
    "cold_only" BOOLEAN NOT NULL DEFAULT false,
    "exported_count" INTEGER,
    "file_name" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "file_deleted_at" TIMESTAMPTZ(3),
    "error_message" TEXT,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscriber_export_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subscriber_export_jobs_workspace_id_created_at_id_idx" ON "subscriber_export_jobs"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "subscriber_export_jobs_expires_at_idx" ON "subscriber_export_jobs"("expires_at");

-- AddForeignKey
ALTER TABLE "subscriber_export_jobs" ADD CONSTRAINT "subscriber_export_jobs_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
