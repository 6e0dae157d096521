// Prisma CLI config for the forms service schema (Prisma 7 reads the datasource URL from here,
// not from schema.prisma). Paths are relative to this file.
// Usually driven through `node scripts/db.mjs generate|migrate|diff` (see tools/db/), which use
// the same URL precedence: $FORMS_DATABASE_URL, else the local default below.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: './schema.prisma',
  migrations: { path: './migrations' },
  datasource: {
    url: process.env.FORMS_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/forms',
  },
});
