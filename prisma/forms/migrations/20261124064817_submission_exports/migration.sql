-- CreateEnum
CREATE TYPE "SubmissionExportStatus" AS ENUM ('queued', 'processing', 'completed', 'failed');

-- CreateTable
CREATE TABLE "submission_exports" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "form_id" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "selected_submission_ids" TEXT[],
    "filter_search" TEXT,
    "filter_status" TEXT,
    "filter_from" TIMESTAMPTZ(3),
    "filter_to" TIMESTAMPTZ(3),
    "status" "SubmissionExportStatus" NOT NULL DEFAULT 'queued',
    "row_count" INTEGER,
    "file_key" TEXT,
    "file_name" TEXT,
    "file_size" INTEGER,
    "expires_at" TIMESTAMPTZ(3),
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "submission_exports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "submission_exports_form_id_created_at_idx" ON "submission_exports"("form_id", "created_at");

-- CreateIndex
CREATE INDEX "submission_exports_expires_at_idx" ON "submission_exports"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "submission_exports_workspace_id_form_id_idempotency_key_key" ON "submission_exports"("workspace_id", "form_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "submission_exports" ADD CONSTRAINT "submission_exports_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "submission_exports" ADD CONSTRAINT "submission_exports_form_id_fkey" FOREIGN KEY ("form_id") REFERENCES "forms"("id") ON DELETE CASCADE ON UPDATE CASCADE;
