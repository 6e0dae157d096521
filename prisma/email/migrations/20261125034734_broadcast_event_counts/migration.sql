-- CreateIndex
CREATE INDEX "email_events_source_id_type_machine_subscriber_id_idx" ON "email_events"("source_id", "type", "machine", "subscriber_id");
