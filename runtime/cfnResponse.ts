// The modules AWS makes importable by ZipFile code of a custom resource: `cfn-response` (nodejs*) and `cfnresponse`
// (python3*), as AWS documents them; runtime/code.ts writes them beside the inline code.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cfn-lambda-function-code-cfnresponsemodule.html

/**
 * AWS's cfn-response: PUT with an empty content-type, the log stream as default physical id, context.done() once
 * the PUT is answered. Why `port` follows the URL: AWS's module pins 443, and cfn-local's HTTPS ResponseURL has a port.
 */
export const CFN_RESPONSE_NODE = String.raw`'use strict';
exports.SUCCESS = 'SUCCESS';
exports.FAILED = 'FAILED';

exports.send = function (event, context, responseStatus, responseData, physicalResourceId, noEcho) {
  return new Promise((resolve) => {
    const responseBody = JSON.stringify({
      Status: responseStatus,
      Reason: 'See the details in CloudWatch Log Stream: ' + context.logStreamName,
      PhysicalResourceId: physicalResourceId || context.logStreamName,
      StackId: event.StackId,
      RequestId: event.RequestId,
      LogicalResourceId: event.LogicalResourceId,
      NoEcho: noEcho || false,
      Data: responseData,
    });
    console.log('Response body:\n', responseBody);
    const parsed = new URL(event.ResponseURL);
    const transport = parsed.protocol === 'http:' ? require('http') : require('https');
    const options = {
      hostname: parsed.hostname,
      port: parsed.port || (parsed.protocol === 'http:' ? 80 : 443),
      path: parsed.pathname + parsed.search,
      method: 'PUT',
      headers: { 'content-type': '', 'content-length': Buffer.byteLength(responseBody) },
    };
    const request = transport.request(options, (response) => {
      console.log('Status code: ' + parseInt(response.statusCode));
      resolve(context.done());
    });
    request.on('error', (error) => {
      console.log('send(..) failed executing https.request(..): ' + error);
      resolve(context.done());
    });
    request.write(responseBody);
    request.end();
  });
};
`;

/**
 * AWS's cfnresponse module, importable by ZipFile code (and its behaviour: PUT with an empty content-type, the log
 * stream as default physical id). https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cfn-lambda-function-code-cfnresponsemodule.html
 */
export const CFNRESPONSE_PY = String.raw`
import json

try:
    import urllib3
    http = urllib3.PoolManager()
except ImportError:
    http = None

SUCCESS = "SUCCESS"
FAILED = "FAILED"

def send(event, context, responseStatus, responseData, physicalResourceId=None, noEcho=False, reason=None):
    responseUrl = event["ResponseURL"]
    print(responseUrl)
    responseBody = {
        "Status": responseStatus,
        "Reason": reason or "See the details in CloudWatch Log Stream: {}".format(context.log_stream_name),
        "PhysicalResourceId": physicalResourceId or context.log_stream_name,
        "StackId": event["StackId"],
        "RequestId": event["RequestId"],
        "LogicalResourceId": event["LogicalResourceId"],
        "NoEcho": noEcho,
        "Data": responseData,
    }
    json_responseBody = json.dumps(responseBody)
    print("Response body:")
    print(json_responseBody)
    headers = {"content-type": "", "content-length": str(len(json_responseBody))}
    try:
        if http is not None:
            response = http.request("PUT", responseUrl, headers=headers, body=json_responseBody)
            print("Status code:", response.status)
        else:
            import urllib.request
            req = urllib.request.Request(responseUrl, data=json_responseBody.encode(), method="PUT", headers=headers)
            with urllib.request.urlopen(req) as response:
                print("Status code:", response.status)
    except Exception as e:
        print("send(..) failed executing http.request(..):", e)
`;
