-- CreateTable
CREATE TABLE "delivery_feedback_receipts" (
    "connection_id" TEXT NOT NULL,
    "provider_event_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "delivery_feedback_receipts_pkey" PRIMARY KEY ("connection_id","provider_event_id")
);

-- CreateIndex
CREATE INDEX "delivery_feedback_receipts_received_at_idx" ON "delivery_feedback_receipts"("received_at");
