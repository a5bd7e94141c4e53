// The startup floor: Node.js and node:http alone, answering DescribeStacks with an empty list, started the way the
// harness starts cfn-local (same flags), so `startup` can be quoted against what this machine's Node costs anyway.
const args = process.argv.slice(2);
const port = Number(args[args.indexOf('--port') + 1]);
const ANSWER =
  '<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">' +
  '<DescribeStacksResult><Stacks/></DescribeStacksResult><ResponseMetadata><RequestId>0</RequestId></ResponseMetadata>' +
  '</DescribeStacksResponse>';
require('node:http')
  .createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/xml' }).end(ANSWER));
  })
  .listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
