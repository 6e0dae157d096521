-- CreateEnum
CREATE TYPE "EmailEventType" AS ENUM ('delivered', 'opened', 'clicked', 'bounced', 'complained', 'unsubscribed', 'magic_link_clicked');

-- CreateTable
CREATE TABLE "segments" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "description" TEXT,
    "definition" JSONB NOT NULL,
    "referenced_segment_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "confirmed_count" INTEGER NOT NULL DEFAULT 0,
    "total_count" INTEGER NOT NULL DEFAULT 0,
    "counts_refreshed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "segments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_events" (
    "id" BIGSERIAL NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "subscriber_id" TEXT NOT NULL,
    "type" "EmailEventType" NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "source_type" TEXT,
    "source_id" TEXT,
    "machine" BOOLEAN NOT NULL DEFAULT false,
    "machine_reason" TEXT,

    CONSTRAINT "email_events_pkey" PRIMARY KEY ("occurred_at","id")
) PARTITION BY RANGE ("occurred_at");

-- One partition per calendar month (UTC), created ahead of the events that need it; pruning drops whole months.
CREATE FUNCTION email_events_ensure_partition(month_start date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  first_day date := date_trunc('month', month_start)::date;
BEGIN
  EXECUTE format(
    'CREATE TABLE IF NOT EXISTS %I PARTITION OF email_events FOR VALUES FROM (%L) TO (%L)',
    'email_events_' || to_char(first_day, 'YYYY_MM'),
    first_day::timestamp AT TIME ZONE 'UTC',
    (first_day + interval '1 month')::timestamp AT TIME ZONE 'UTC');
END $$;

-- Drops the monthly partitions that end on or before `cutoff`; returns how many.
CREATE FUNCTION email_events_drop_partitions_before(cutoff date) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  part record;
  dropped integer := 0;
BEGIN
  FOR part IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'email_events'::regclass AND c.relname ~ '^email_events_[0-9]{4}_[0-9]{2}$'
      AND (to_date(substr(c.relname, 14), 'YYYY_MM') + interval '1 month') <= cutoff
  LOOP
    EXECUTE format('DROP TABLE %I', part.relname);
    dropped := dropped + 1;
  END LOOP;
  RETURN dropped;
END $$;

-- CreateTable
CREATE TABLE "subscriber_engagement" (
    "subscriber_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "last_delivered_at" TIMESTAMPTZ(3),
    "last_opened_at" TIMESTAMPTZ(3),
    "last_machine_opened_at" TIMESTAMPTZ(3),
    "last_clicked_at" TIMESTAMPTZ(3),
    "last_bounced_at" TIMESTAMPTZ(3),
    "last_complained_at" TIMESTAMPTZ(3),
    "last_unsubscribed_at" TIMESTAMPTZ(3),
    "last_magic_link_clicked_at" TIMESTAMPTZ(3),
    "opens_30d" INTEGER NOT NULL DEFAULT 0,
    "opens_90d" INTEGER NOT NULL DEFAULT 0,
    "clicks_30d" INTEGER NOT NULL DEFAULT 0,
    "clicks_90d" INTEGER NOT NULL DEFAULT 0,
    "windows_as_of" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscriber_engagement_pkey" PRIMARY KEY ("subscriber_id")
);

-- CreateTable
CREATE TABLE "form_subscriptions" (
    "subscriber_id" TEXT NOT NULL,
    "form_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "subscribed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "form_subscriptions_pkey" PRIMARY KEY ("subscriber_id","form_id")
);

-- CreateIndex
CREATE INDEX "segments_workspace_id_created_at_id_idx" ON "segments"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "segments_referenced_segment_ids_idx" ON "segments" USING GIN ("referenced_segment_ids");

-- CreateIndex
CREATE UNIQUE INDEX "segments_workspace_id_name_key_key" ON "segments"("workspace_id", "name_key");

-- CreateIndex
CREATE INDEX "email_events_workspace_id_subscriber_id_occurred_at_idx" ON "email_events"("workspace_id", "subscriber_id", "occurred_at" DESC);

-- CreateIndex
CREATE INDEX "subscriber_engagement_workspace_id_last_opened_at_idx" ON "subscriber_engagement"("workspace_id", "last_opened_at");

-- CreateIndex
CREATE INDEX "subscriber_engagement_workspace_id_last_clicked_at_idx" ON "subscriber_engagement"("workspace_id", "last_clicked_at");

-- CreateIndex
CREATE INDEX "form_subscriptions_form_id_idx" ON "form_subscriptions"("form_id");

-- AddForeignKey
ALTER TABLE "segments" ADD CONSTRAINT "segments_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber_engagement" ADD CONSTRAINT "subscriber_engagement_subscriber_id_fkey" FOREIGN KEY ("subscriber_id") REFERENCES "subscribers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "form_subscriptions" ADD CONSTRAINT "form_subscriptions_subscriber_id_fkey" FOREIGN KEY ("subscriber_id") REFERENCES "subscribers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
