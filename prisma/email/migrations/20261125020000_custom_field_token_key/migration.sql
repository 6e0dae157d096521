-- Custom field labels become unique by the personalization token they give, not only by case: "first name" and
-- "First_Name" both give [Subscriber_First_Name, …], so one field's value filled both. The key is the token name in
-- lower case (the app's tokenIdentity: NFC, runs of letters and digits joined by "_"). Labels that collide under the
-- new key keep their text; every one but the oldest gets a suffixed key, so renaming it frees the token.
-- The unique index is checked row by row, so the old keys are first moved out of the way.
UPDATE "custom_fields" SET "label_key" = '#' || "id";

WITH keyed AS (
  SELECT "id", "workspace_id", "created_at",
         trim(BOTH '_' FROM regexp_replace(lower(normalize("label", NFC)), '[^[:alnum:]]+', '_', 'g')) AS token_key
  FROM "custom_fields"
)
UPDATE "custom_fields" f SET "label_key" = CASE
  WHEN EXISTS (SELECT 1 FROM keyed o WHERE o."workspace_id" = k."workspace_id" AND o.token_key = k.token_key
               AND (o."created_at", o."id") < (k."created_at", k."id"))
  THEN k.token_key || ' #' || k."id"
  ELSE k.token_key
END
FROM keyed k
WHERE k."id" = f."id";
