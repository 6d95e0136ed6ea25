-- Toll fraud (issue 13): the countries an account's forms send codes to. Existing accounts get the US, as new ones do
-- (the public page reads a number without a country code as a US number); a constant default adds the column without
-- rewriting the table.
ALTER TABLE "accounts" ADD COLUMN "phone_countries" text[] DEFAULT '{"US"}' NOT NULL;