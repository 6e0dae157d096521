-- CreateEnum
CREATE TYPE "FormStatus" AS ENUM ('draft', 'published', 'closed');

-- CreateTable
CREATE TABLE "forms" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "status" "FormStatus" NOT NULL DEFAULT 'draft',
    "slug" TEXT,
    "draft_schema" JSONB NOT NULL,
    "draft_revision" INTEGER NOT NULL DEFAULT 0,
    "draft_updated_at" TIMESTAMPTZ(3) NOT NULL,
    "published_version" INTEGER NOT NULL DEFAULT 0,
    "published_at" TIMESTAMPTZ(3),
    "public_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "forms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "form_versions" (
    "form_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "schema" JSONB NOT NULL,
    "published_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "form_versions_pkey" PRIMARY KEY ("form_id","version")
);

-- CreateTable
CREATE TABLE "form_submissions" (
    "id" TEXT NOT NULL,
    "form_id" TEXT NOT NULL,
    "published_version" INTEGER NOT NULL,
    "dedupe_key" TEXT,
    "record" JSON NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "form_submissions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "form_uploads" (
    "id" TEXT NOT NULL,
    "form_id" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "form_uploads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "form_response_counts" (
    "form_id" TEXT NOT NULL,
    "shard" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "form_response_counts_pkey" PRIMARY KEY ("form_id","shard")
);

-- CreateIndex
CREATE UNIQUE INDEX "forms_public_id_key" ON "forms"("public_id");

-- CreateIndex
CREATE INDEX "forms_workspace_id_updated_at_created_at_idx" ON "forms"("workspace_id", "updated_at" DESC, "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "forms_workspace_id_slug_key" ON "forms"("workspace_id", "slug");

-- CreateIndex
CREATE INDEX "form_submissions_form_id_created_at_idx" ON "form_submissions"("form_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "form_submissions_form_id_dedupe_key_key" ON "form_submissions"("form_id", "dedupe_key");

-- CreateIndex
CREATE INDEX "form_uploads_form_id_idx" ON "form_uploads"("form_id");

-- AddForeignKey
ALTER TABLE "forms" ADD CONSTRAINT "forms_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "form_versions" ADD CONSTRAINT "form_versions_form_id_fkey" FOREIGN KEY ("form_id") REFERENCES "forms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_form_id_fkey" FOREIGN KEY ("form_id") REFERENCES "forms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "form_uploads" ADD CONSTRAINT "form_uploads_form_id_fkey" FOREIGN KEY ("form_id") REFERENCES "forms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "form_response_counts" ADD CONSTRAINT "form_response_counts_form_id_fkey" FOREIGN KEY ("form_id") REFERENCES "forms"("id") ON DELETE CASCADE ON UPDATE CASCADE;
