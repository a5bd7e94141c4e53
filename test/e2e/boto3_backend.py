"""boto3 using a deployed app's queue, table and topic through cfn-local's one endpoint; prints what it saw as JSON.

Usage: boto3_backend.py <endpoint> <queue url> <table name> <key attribute> <topic arn>.
"""
import json
import sys

import boto3

endpoint, queue_url, table, key, topic = sys.argv[1:6]
session = boto3.session.Session(aws_access_key_id="test", aws_secret_access_key="test", region_name="us-east-1")
sqs = session.client("sqs", endpoint_url=endpoint)
dynamodb = session.client("dynamodb", endpoint_url=endpoint)
sns = session.client("sns", endpoint_url=endpoint)

seen = {}
sqs.send_message(QueueUrl=queue_url, MessageBody="from boto3")
got = sqs.receive_message(QueueUrl=queue_url, WaitTimeSeconds=2)
seen["received"] = [m["Body"] for m in got.get("Messages", [])]
for m in got.get("Messages", []):
    sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=m["ReceiptHandle"])

dynamodb.put_item(TableName=table, Item={key: {"S": "boto3"}, "n": {"N": "7"}})
seen["item"] = dynamodb.get_item(TableName=table, Key={key: {"S": "boto3"}}).get("Item")

sns.publish(TopicArn=topic, Message="published by boto3")
delivered = []
for _ in range(10):
    got = sqs.receive_message(QueueUrl=queue_url, WaitTimeSeconds=1)
    for m in got.get("Messages", []):
        delivered.append(m["Body"])
        sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=m["ReceiptHandle"])
    if delivered:
        break
seen["delivered"] = delivered
print(json.dumps(seen))
