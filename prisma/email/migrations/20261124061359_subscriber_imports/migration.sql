-- CreateTable
CREATE TABLE "subscriber_import_uploads" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'Pending',
    "token_hash" TEXT NOT NULL,
    "link_expires_at" TIMESTAMPTZ(3) NOT NULL,
    "receiving_since" TIMESTAMPTZ(3),
    "file_name" TEXT,
    "size_bytes" BIGINT,
    "encoding" TEXT,
    "delimiter" TEXT,
    "headers" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "row_count" INTEGER,
    "import_job_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "uploaded_at" TIMESTAMPTZ(3),
    "queued_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscriber_import_uploads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscriber_import_jobs" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "upload_id" TEXT NOT NULL,
    "dry_run" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'Queued',
    "request" JSONB NOT NULL,
    "new_tag_id" TEXT,
    "processed_rows" INTEGER NOT NULL DEFAULT 0,
    "created_count" INTEGER NOT NULL DEFAULT 0,
    "updated_count" INTEGER NOT NULL DEFAULT 0,
    "unchanged_count" INTEGER NOT NULL DEFAULT 0,
    "rejected_count" INTEGER NOT NULL DEFAULT 0,
    "duplicate_count" INTEGER NOT NULL DEFAULT 0,
    "error_message" TEXT,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscriber_import_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscriber_import_rejections" (
    "job_id" TEXT NOT NULL,
    "row_number" INTEGER NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "csv_column" TEXT,
    "code" TEXT NOT NULL,
    "reason" TEXT NOT NULL,

    CONSTRAINT "subscriber_import_rejections_pkey" PRIMARY KEY ("job_id","row_number")
);

-- CreateIndex
CREATE UNIQUE INDEX "subscriber_import_uploads_token_hash_key" ON "subscriber_import_uploads"("token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "subscriber_import_uploads_import_job_id_key" ON "subscriber_import_uploads"("import_job_id");

-- CreateIndex
CREATE INDEX "subscriber_import_uploads_workspace_id_created_at_idx" ON "subscriber_import_uploads"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "subscriber_import_uploads_expires_at_idx" ON "subscriber_import_uploads"("expires_at");

-- CreateIndex
CREATE INDEX "subscriber_import_jobs_workspace_id_dry_run_created_at_id_idx" ON "subscriber_import_jobs"("workspace_id", "dry_run", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "subscriber_import_uploads" ADD CONSTRAINT "subscriber_import_uploads_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber_import_jobs" ADD CONSTRAINT "subscriber_import_jobs_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber_import_rejections" ADD CONSTRAINT "subscriber_import_rejections_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "subscriber_import_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
