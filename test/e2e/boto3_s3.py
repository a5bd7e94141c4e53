"""S3 through boto3 against cfn-local, path-style and virtual-hosted-style; prints what it saw as JSON.

Usage: boto3_s3.py <endpoint>. *.localhost names are resolved to loopback here, as not every machine does.
"""
import hashlib
import io
import json
import socket
import sys
import urllib.request

import boto3
from botocore.config import Config

_getaddrinfo = socket.getaddrinfo


def _loopback(host, *args, **kwargs):
    if isinstance(host, str) and host.endswith(".localhost"):
        host = "127.0.0.1"
    return _getaddrinfo(host, *args, **kwargs)


socket.getaddrinfo = _loopback

endpoint = sys.argv[1]
seen = {}
for style in ("path", "virtual"):
    url = endpoint if style == "path" else endpoint.replace("127.0.0.1", "localhost")
    s3 = boto3.client(
        "s3", endpoint_url=url, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test",
        config=Config(s3={"addressing_style": style}),
    )
    bucket = f"boto3-{style}"
    out = {}
    s3.create_bucket(Bucket=bucket)
    put = s3.put_object(Bucket=bucket, Key="dir/a.txt", Body=b"hello boto3", ContentType="text/plain")
    out["putETag"] = put["ETag"]
    out["md5"] = '"%s"' % hashlib.md5(b"hello boto3").hexdigest()
    got = s3.get_object(Bucket=bucket, Key="dir/a.txt")
    out["get"] = {"body": got["Body"].read().decode(), "type": got["ContentType"], "length": got["ContentLength"]}
    ranged = s3.get_object(Bucket=bucket, Key="dir/a.txt", Range="bytes=6-")
    out["range"] = ranged["Body"].read().decode()
    big = b"z" * (6 * 1024 * 1024)
    s3.upload_fileobj(io.BytesIO(big), bucket, "big.bin", Config=boto3.s3.transfer.TransferConfig(multipart_threshold=5 * 1024 * 1024, multipart_chunksize=5 * 1024 * 1024))
    head = s3.head_object(Bucket=bucket, Key="big.bin")
    out["multipart"] = {"length": head["ContentLength"], "etag": head["ETag"]}
    presigned = s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "dir/a.txt"}, ExpiresIn=300)
    with urllib.request.urlopen(presigned) as res:
        out["presigned"] = res.read().decode()
    listed = s3.list_objects_v2(Bucket=bucket, Delimiter="/")
    out["list"] = {"keys": [o["Key"] for o in listed.get("Contents", [])], "prefixes": [p["Prefix"] for p in listed.get("CommonPrefixes", [])]}
    try:
        s3.get_object(Bucket=bucket, Key="missing")
    except s3.exceptions.NoSuchKey as e:
        out["noSuchKey"] = e.response["Error"]["Code"]
    try:
        s3.delete_bucket(Bucket=bucket)
    except Exception as e:  # noqa: BLE001 - any client error is what we report
        out["notEmpty"] = e.response["Error"]["Code"]
    s3.delete_objects(Bucket=bucket, Delete={"Objects": [{"Key": "dir/a.txt"}, {"Key": "big.bin"}]})
    s3.delete_bucket(Bucket=bucket)
    out["bucketsAfter"] = [b["Name"] for b in s3.list_buckets()["Buckets"]]
    seen[style] = out
print(json.dumps(seen))
