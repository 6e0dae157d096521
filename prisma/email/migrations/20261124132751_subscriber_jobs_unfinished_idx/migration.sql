-- The stale-job sweep reads the jobs not yet finished (Queued or Processing), oldest first, across workspaces. Partial
-- indexes hold only those few rows, however many finished jobs the tables keep; the sweep's statement repeats the
-- predicate literally so the planner can use them.
CREATE INDEX "subscriber_import_jobs_unfinished_created_at_idx" ON "subscriber_import_jobs"("created_at") WHERE "status" IN ('Queued', 'Processing');

CREATE INDEX "subscriber_export_jobs_unfinished_created_at_idx" ON "subscriber_export_jobs"("created_at") WHERE "status" IN ('Queued', 'Processing');
