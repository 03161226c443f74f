-- What an idempotent call queued, so its replay carries the same receipts:
-- `<idempotency scope>\n<key>` of the call (never served).
ALTER TABLE log_entries ADD COLUMN subject TEXT;
CREATE INDEX log_entries_subject ON log_entries (subject) WHERE subject IS NOT NULL;
