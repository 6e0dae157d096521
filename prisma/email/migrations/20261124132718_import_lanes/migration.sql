-- An import writes its batches in lanes; each lane keeps its own resume point. Jobs not finished yet resume as one lane
-- from where their single checkpoint (processed_rows, then a row position) stood.
ALTER TABLE "subscriber_import_jobs" ADD COLUMN "lane_rows" INTEGER[] DEFAULT ARRAY[]::INTEGER[];

UPDATE "subscriber_import_jobs" SET "lane_rows" = ARRAY["processed_rows"] WHERE "status" IN ('Queued', 'Processing') AND "processed_rows" > 0;
