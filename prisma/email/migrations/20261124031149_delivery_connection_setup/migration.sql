-- AlterTable
ALTER TABLE "delivery_connections" ADD COLUMN     "secrets" TEXT,
ADD COLUMN     "verified_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "delivery_connection_setup_sessions" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "connection_id" TEXT,
    "name" TEXT,
    "provider" TEXT,
    "from_email" TEXT,
    "from_name" TEXT,
    "token_hash" TEXT NOT NULL,
    "failed_tests" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "failure_code" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "delivery_connection_setup_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "delivery_connection_setup_sessions_token_hash_key" ON "delivery_connection_setup_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "delivery_connection_setup_sessions_workspace_id_created_at_idx" ON "delivery_connection_setup_sessions"("workspace_id", "created_at");

-- AddForeignKey
ALTER TABLE "delivery_connection_setup_sessions" ADD CONSTRAINT "delivery_connection_setup_sessions_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery_connection_setup_sessions" ADD CONSTRAINT "delivery_connection_setup_sessions_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "delivery_connections"("id") ON DELETE SET NULL ON UPDATE CASCADE;
