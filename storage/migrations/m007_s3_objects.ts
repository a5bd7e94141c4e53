// Migration 7: S3 objects, multipart uploads and their parts. A bucket itself is a world row (AWS::S3::Bucket); these
// rows hold what is in it: metadata here, the bytes in the body store (storage/bodies.ts) under body_id.
export const sql = String.raw`
CREATE TABLE s3_objects (
  account TEXT NOT NULL,
  region TEXT NOT NULL,
  bucket TEXT NOT NULL,
  key TEXT NOT NULL,
  size INTEGER NOT NULL,
  etag TEXT NOT NULL,
  last_modified TEXT NOT NULL,
  body_id TEXT NOT NULL,
  doc TEXT NOT NULL,
  PRIMARY KEY (account, bucket, key)
) WITHOUT ROWID;
CREATE TABLE s3_uploads (
  upload_id TEXT PRIMARY KEY,
  account TEXT NOT NULL,
  region TEXT NOT NULL,
  bucket TEXT NOT NULL,
  key TEXT NOT NULL,
  initiated TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX s3_uploads_by_bucket ON s3_uploads (account, bucket, key);
CREATE TABLE s3_parts (
  upload_id TEXT NOT NULL,
  part_number INTEGER NOT NULL,
  size INTEGER NOT NULL,
  etag TEXT NOT NULL,
  last_modified TEXT NOT NULL,
  body_id TEXT NOT NULL,
  PRIMARY KEY (upload_id, part_number)
) WITHOUT ROWID;
`;
