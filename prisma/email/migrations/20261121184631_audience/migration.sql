-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateEnum
CREATE TYPE "GdprConsentPurpose" AS ENUM ('email_marketing', 'ads_personalization');

-- CreateEnum
CREATE TYPE "CustomFieldType" AS ENUM ('Text', 'Number', 'Date', 'Select (Dropdown)', 'Single Select', 'Multi Select', 'Text Area', 'Checkbox');

-- CreateEnum
CREATE TYPE "SequenceStatus" AS ENUM ('running', 'paused');

-- CreateEnum
CREATE TYPE "EnrollmentState" AS ENUM ('active', 'completed', 'removed');

-- CreateTable
CREATE TABLE "tags" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "description" TEXT,
    "gdpr_consent_purpose" "GdprConsentPurpose",
    "subscriber_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tags_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscriber_tags" (
    "workspace_id" TEXT NOT NULL,
    "subscriber_id" TEXT NOT NULL,
    "tag_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscriber_tags_pkey" PRIMARY KEY ("subscriber_id","tag_id")
);

-- CreateTable
CREATE TABLE "custom_fields" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "type" "CustomFieldType" NOT NULL,
    "options" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "custom_fields_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sequences" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" "SequenceStatus" NOT NULL DEFAULT 'paused',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sequences_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sequence_enrollments" (
    "workspace_id" TEXT NOT NULL,
    "subscriber_id" TEXT NOT NULL,
    "sequence_id" TEXT NOT NULL,
    "state" "EnrollmentState" NOT NULL DEFAULT 'active',
    "enrolled_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sequence_enrollments_pkey" PRIMARY KEY ("subscriber_id","sequence_id")
);

-- CreateTable
CREATE TABLE "consent_records" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "subscriber_id" TEXT NOT NULL,
    "lawful_basis" TEXT NOT NULL,
    "consent_text_version" TEXT,
    "collected_at" TIMESTAMPTZ(3) NOT NULL,
    "source_url" TEXT,
    "evidence_reference" TEXT NOT NULL,
    "technical_evidence_hash" TEXT,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "consent_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery_connections" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "from_email" TEXT NOT NULL,
    "from_name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "provider_config" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "delivery_connections_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "tags_workspace_id_created_at_id_idx" ON "tags"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "tags_workspace_id_name_key_key" ON "tags"("workspace_id", "name_key");

-- CreateIndex
CREATE INDEX "subscriber_tags_tag_id_subscriber_id_idx" ON "subscriber_tags"("tag_id", "subscriber_id");

-- CreateIndex
CREATE INDEX "custom_fields_workspace_id_created_at_id_idx" ON "custom_fields"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "sequences_workspace_id_idx" ON "sequences"("workspace_id");

-- CreateIndex
CREATE INDEX "sequence_enrollments_sequence_id_state_idx" ON "sequence_enrollments"("sequence_id", "state");

-- CreateIndex
CREATE INDEX "consent_records_subscriber_id_recorded_at_idx" ON "consent_records"("subscriber_id", "recorded_at");

-- CreateIndex
CREATE INDEX "delivery_connections_workspace_id_created_at_id_idx" ON "delivery_connections"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "subscribers_search_trgm_idx" ON "subscribers" USING GIN ("email" gin_trgm_ops, "name" gin_trgm_ops);

-- AddForeignKey
ALTER TABLE "tags" ADD CONSTRAINT "tags_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber_tags" ADD CONSTRAINT "subscriber_tags_subscriber_id_fkey" FOREIGN KEY ("subscriber_id") REFERENCES "subscribers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber_tags" ADD CONSTRAINT "subscriber_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_fields" ADD CONSTRAINT "custom_fields_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sequences" ADD CONSTRAINT "sequences_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sequence_enrollments" ADD CONSTRAINT "sequence_enrollments_subscriber_id_fkey" FOREIGN KEY ("subscriber_id") REFERENCES "subscribers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sequence_enrollments" ADD CONSTRAINT "sequence_enrollments_sequence_id_fkey" FOREIGN KEY ("sequence_id") REFERENCES "sequences"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_subscriber_id_fkey" FOREIGN KEY ("subscriber_id") REFERENCES "subscribers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery_connections" ADD CONSTRAINT "delivery_connections_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
