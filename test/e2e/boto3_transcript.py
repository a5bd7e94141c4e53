"""Drives the README transcript with boto3 against cfn-local and prints what it saw as one JSON document.

Usage: python3 boto3_transcript.py <endpoint-url> <template-file>
Run by test/e2e/boto3.test.ts with Debian's /usr/bin/python3 and python3-boto3; the test asserts on the JSON.
"""
import json
import sys

import boto3
from botocore.exceptions import ClientError

endpoint, template_path = sys.argv[1], sys.argv[2]
with open(template_path, encoding="utf-8") as f:
    body = f.read()

# Exactly what the quick start shows: dummy credentials, a region, endpoint_url.
cfn = boto3.client(
    "cloudformation",
    endpoint_url=endpoint,
    region_name="us-east-1",
    aws_access_key_id="test",
    aws_secret_access_key="test",
)
# The waiters poll every 30 s by default; a local stack settles in milliseconds.
FAST = {"Delay": 1, "MaxAttempts": 30}
out = {}

created = cfn.create_stack(
    StackName="demo-boto3",
    TemplateBody=body,
    Parameters=[{"ParameterKey": "Env", "ParameterValue": "dev"}],
)
out["create"] = {"StackId": created["StackId"]}
cfn.get_waiter("stack_create_complete").wait(StackName="demo-boto3", WaiterConfig=FAST)

stack = cfn.describe_stacks(StackName="demo-boto3")["Stacks"][0]
out["describe"] = {
    "StackStatus": stack["StackStatus"],
    "CreationTimeIsDatetime": hasattr(stack["CreationTime"], "isoformat"),
    "Outputs": {o["OutputKey"]: o["OutputValue"] for o in stack.get("Outputs", [])},
    "Parameters": stack.get("Parameters", []),
}

events = cfn.describe_stack_events(StackName="demo-boto3")["StackEvents"]
out["events"] = [
    {
        "LogicalResourceId": e["LogicalResourceId"],
        "ResourceStatus": e["ResourceStatus"],
        "ResourceType": e["ResourceType"],
        "Timestamp": e["Timestamp"].isoformat(),
    }
    for e in events
]

template = cfn.get_template(StackName="demo-boto3")["TemplateBody"]
out["templateIdentical"] = template == body

cfn.update_stack(
    StackName="demo-boto3",
    TemplateBody=body,
    Parameters=[{"ParameterKey": "Env", "ParameterValue": "prod"}],
)
cfn.get_waiter("stack_update_complete").wait(StackName="demo-boto3", WaiterConfig=FAST)
stack = cfn.describe_stacks(StackName="demo-boto3")["Stacks"][0]
out["update"] = {
    "StackStatus": stack["StackStatus"],
    "Outputs": {o["OutputKey"]: o["OutputValue"] for o in stack.get("Outputs", [])},
}

try:
    cfn.create_stack(StackName="demo-boto3", TemplateBody=body)
    out["duplicate"] = None
except ClientError as err:
    out["duplicate"] = {
        "Code": err.response["Error"]["Code"],
        "Message": err.response["Error"]["Message"],
        "HTTPStatusCode": err.response["ResponseMetadata"]["HTTPStatusCode"],
    }

cfn.delete_stack(StackName="demo-boto3")
cfn.get_waiter("stack_delete_complete").wait(StackName="demo-boto3", WaiterConfig=FAST)

try:
    cfn.describe_stacks(StackName="demo-boto3")
    out["notFound"] = None
except ClientError as err:
    out["notFound"] = {
        "Code": err.response["Error"]["Code"],
        "Message": err.response["Error"]["Message"],
        "HTTPStatusCode": err.response["ResponseMetadata"]["HTTPStatusCode"],
    }

print(json.dumps(out))
