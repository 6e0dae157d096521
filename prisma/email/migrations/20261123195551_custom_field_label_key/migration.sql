-- Custom field labels become unique per workspace regardless of case, enforced by the database (the service's
-- pre-check alone let concurrent creates through).
ALTER TABLE "custom_fields" ADD COLUMN "label_key" TEXT;

-- Backfill; labels that already collide (from that race) keep their label, only the oldest gets the plain key.
UPDATE "custom_fields" f SET "label_key" = CASE
  WHEN EXISTS (SELECT 1 FROM "custom_fields" o WHERE o."workspace_id" = f."workspace_id" AND lower(o."label") = lower(f."label")
               AND (o."created_at", o."id") < (f."created_at", f."id"))
  THEN lower(f."label") || ' #' || f."id"
  ELSE lower(f."label")
END;

ALTER TABLE "custom_fields" ALTER COLUMN "label_key" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "custom_fields_workspace_id_label_key_key" ON "custom_fields"("workspace_id", "label_key");
