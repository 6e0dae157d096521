-- A connection's own send limits (null: its provider's default). Positive whole numbers, checked by the API: a CHECK
-- constraint here would stop Prisma's WebAssembly schema engine from describing the database (it panics on them).
ALTER TABLE "delivery_connections" ADD COLUMN     "daily_quota" INTEGER,
ADD COLUMN     "send_connections" INTEGER,
ADD COLUMN     "send_rate_per_second" INTEGER;
