-- CreateEnum
CREATE TYPE "PaymentProviderName" AS ENUM ('razorpay', 'stripe');

-- CreateEnum
CREATE TYPE "FormPaymentStatus" AS ENUM ('created', 'paid', 'failed');

-- CreateTable
CREATE TABLE "payment_integrations" (
    "workspace_id" TEXT NOT NULL,
    "provider" "PaymentProviderName" NOT NULL,
    "public_key" TEXT NOT NULL,
    "secrets" TEXT NOT NULL,
    "has_webhook_secret" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payment_integrations_pkey" PRIMARY KEY ("workspace_id","provider")
);

-- CreateTable
CREATE TABLE "form_payments" (
    "id" TEXT NOT NULL,
    "form_id" TEXT NOT NULL,
    "field_id" TEXT NOT NULL,
    "provider" "PaymentProviderName" NOT NULL,
    "provider_order_id" TEXT NOT NULL,
    "provider_payment_id" TEXT,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "status" "FormPaymentStatus" NOT NULL DEFAULT 'created',
    "failure_reason" TEXT,
    "submission_id" TEXT,
    "paid_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "form_payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_webhook_events" (
    "provider" "PaymentProviderName" NOT NULL,
    "event_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_webhook_events_pkey" PRIMARY KEY ("provider","event_id")
);

-- CreateIndex
CREATE INDEX "form_payments_form_id_created_at_idx" ON "form_payments"("form_id", "created_at");

-- CreateIndex
CREATE INDEX "form_payments_submission_id_idx" ON "form_payments"("submission_id");

-- CreateIndex
CREATE UNIQUE INDEX "form_payments_provider_provider_order_id_key" ON "form_payments"("provider", "provider_order_id");

-- AddForeignKey
ALTER TABLE "payment_integrations" ADD CONSTRAINT "payment_integrations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "form_payments" ADD CONSTRAINT "form_payments_form_id_fkey" FOREIGN KEY ("form_id") REFERENCES "forms"("id") ON DELETE CASCADE ON UPDATE CASCADE;
