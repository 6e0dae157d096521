-- A tag's subscriber count is tags.subscriber_count plus the sum of its shards: membership writers add their +1/-1
-- to one shard picked at random instead of updating the tag row, which every writer of a popular tag queued on.
-- CreateTable
CREATE TABLE "tag_count_shards" (
    "tag_id" TEXT NOT NULL,
    "shard" SMALLINT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "delta" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "tag_count_shards_pkey" PRIMARY KEY ("tag_id","shard")
);

-- AddForeignKey
ALTER TABLE "tag_count_shards" ADD CONSTRAINT "tag_count_shards_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;
