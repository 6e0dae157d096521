-- AlterTable
ALTER TABLE "form_uploads" ADD COLUMN     "attached_at" TIMESTAMPTZ(3),
ADD COLUMN     "sha256" TEXT,
ADD COLUMN     "storage_key" TEXT,
ALTER COLUMN "data" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "form_uploads_attached_at_created_at_idx" ON "form_uploads"("attached_at", "created_at");

-- Uploads some submission already refers to count as attached, so the clean-up job keeps them. Upload ids are unique
-- ULIDs, so finding one in the stored record's text is exact.
UPDATE "form_uploads" u SET "attached_at" = u."created_at"
WHERE EXISTS (SELECT 1 FROM "form_submissions" s WHERE s."form_id" = u."form_id" AND strpos(s."record"::text, u."id") > 0);
